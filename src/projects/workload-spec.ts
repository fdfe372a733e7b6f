import type { Queryable } from '../db/knex';
import { InvalidInput } from '../errors';

/**
 * What a workload declares and how its overrides apply. Precedence: workload < environment < tenant-and-environment;
 * variables merge key by key, resources by request/limit entry, tag and replicas replace.
 */
export interface ResourceAmounts {
  cpu?: string;
  memory?: string;
}

export interface WorkloadResources {
  requests?: ResourceAmounts;
  limits?: ResourceAmounts;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

/** Kubernetes Probe objects, passed through as written (the validation engine checks them). */
export interface WorkloadProbes {
  liveness?: Record<string, unknown>;
  readiness?: Record<string, unknown>;
  startup?: Record<string, unknown>;
}

/**
 * A Kubernetes manifest the workload carries as written (an HorizontalPodAutoscaler, a PodDisruptionBudget, an
 * Ingress): generated beside the workload's own files in every target and validated like them.
 */
export interface ExtraManifest {
  name: string;
  content: string;
}

/**
 * An organization chart version (a Helm chart pushed to the registry, `name` its repository inside the organization)
 * or kustomize base version the workload is rendered from instead of the generated Deployment, Service and ConfigMap;
 * `values` are the chart's values (the workload's image and replicas are set on top).
 */
export interface WorkloadSource {
  kind: 'chart' | 'kustomize-base';
  name: string;
  version: string;
  values?: Record<string, unknown>;
}

/** Refuses (422) a source the organization does not hold or that cannot render (src/gitops/workload-sources.ts). */
export type SourceCheck = (db: Queryable, organizationId: string, source: WorkloadSource) => Promise<void>;

export interface WorkloadSpec {
  source?: WorkloadSource;
  image: { repository: string; tag: string };
  replicas: number;
  ports: ContainerPort[];
  resources: WorkloadResources;
  probes: WorkloadProbes;
  variables: Record<string, string>;
  extraManifests?: ExtraManifest[];
}

/** What an environment, or a tenant in an environment, may change. */
export interface WorkloadOverride {
  tag?: string;
  /** The chart version this target runs (a chart-based workload's `source.version`, set by a watched chart update). */
  chartVersion?: string;
  replicas?: number;
  variables?: Record<string, string>;
  resources?: WorkloadResources;
}

export interface WorkloadOverrides {
  /** By environment slug. */
  environments?: Record<string, WorkloadOverride>;
  /** By tenant slug, then environment slug. */
  tenants?: Record<string, Record<string, WorkloadOverride>>;
}

/**
 * The workload fields a create body may leave out. Extra manifests are named once each; `source: null` (an update)
 * removes the source.
 */
export function withDefaults(
  input: Partial<Omit<WorkloadSpec, 'source'>> & Pick<WorkloadSpec, 'image'> & { source?: WorkloadSource | null },
): WorkloadSpec {
  const names = (input.extraManifests ?? []).map((m) => m.name);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined) throw new InvalidInput(`extra manifest ${repeated} is named twice`);
  if (input.source?.values && input.source.kind !== 'chart')
    throw new InvalidInput('values apply to a chart source only');
  return {
    ...(input.source ? { source: input.source } : {}),
    ...(input.extraManifests?.length ? { extraManifests: input.extraManifests } : {}),
    image: input.image,
    replicas: input.replicas ?? 1,
    ports: input.ports ?? [],
    resources: input.resources ?? {},
    probes: input.probes ?? {},
    variables: input.variables ?? {},
  };
}

function mergeResources(base: WorkloadResources, over: WorkloadResources | undefined): WorkloadResources {
  if (!over) return base;
  const merged: WorkloadResources = {};
  for (const key of ['requests', 'limits'] as const) {
    const amounts = { ...base[key], ...over[key] };
    if (Object.keys(amounts).length > 0) merged[key] = amounts;
  }
  return merged;
}

function applyOverride(spec: WorkloadSpec, over: WorkloadOverride | undefined): WorkloadSpec {
  if (!over) return spec;
  return {
    ...spec,
    ...(spec.source?.kind === 'chart' && over.chartVersion !== undefined
      ? { source: { ...spec.source, version: over.chartVersion } }
      : {}),
    image: { ...spec.image, tag: over.tag ?? spec.image.tag },
    replicas: over.replicas ?? spec.replicas,
    variables: { ...spec.variables, ...over.variables },
    resources: mergeResources(spec.resources, over.resources),
  };
}

/** The workload as one tenant runs it in one environment. */
export function effectiveSpec(
  spec: WorkloadSpec,
  overrides: WorkloadOverrides,
  tenant: string,
  environment: string,
): WorkloadSpec {
  const env = applyOverride(spec, overrides.environments?.[environment]);
  return applyOverride(env, overrides.tenants?.[tenant]?.[environment]);
}

/** What a release changes in one workload for its tenant and environment. */
export interface WorkloadChange {
  workload: string;
  tag?: string;
  chartVersion?: string;
  replicas?: number;
  /** Merged key by key into the tenant-and-environment variables. */
  variables?: Record<string, string>;
}

/** Overrides with a tenant-and-environment override patched: tag and replicas replace, variables merge. */
export function withTenantOverride(
  overrides: WorkloadOverrides,
  tenant: string,
  environment: string,
  patch: WorkloadOverride,
): WorkloadOverrides {
  const tenants = { ...overrides.tenants };
  const current = tenants[tenant]?.[environment];
  const next: WorkloadOverride = { ...current, ...patch };
  if (patch.variables) next.variables = { ...current?.variables, ...patch.variables };
  tenants[tenant] = { ...tenants[tenant], [environment]: next };
  return { ...overrides, tenants };
}

/** Overrides with one tenant-and-environment tag set (the bulk image update). */
export function withTenantTag(
  overrides: WorkloadOverrides,
  tenant: string,
  environment: string,
  tag: string,
): WorkloadOverrides {
  return withTenantOverride(overrides, tenant, environment, { tag });
}

/** The override patch of a release change (the workload name left out). */
export function overridePatchOf(change: WorkloadChange): WorkloadOverride {
  const { workload: _workload, ...patch } = change;
  return patch;
}
