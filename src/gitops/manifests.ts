import { createHash } from 'node:crypto';
import { applicationPath, serviceDir, type Target } from '../delivery-layout/target-paths';
import type { SyncPolicy } from '../projects/argocd-settings';
import { effectiveSpec, type WorkloadOverrides, type WorkloadSpec } from '../projects/workload-spec';
import { application, yaml } from './argocd-objects';
import { renderProjectFiles } from './argocd-roots';
import type { Destination } from './destinations';
import type { RenderedTargets } from './workload-sources';
import { RenderedFiles } from './rendered-files';
import { sourceAnnotations } from './target-source';

/** What the generator renders into the repository layout (src/delivery-layout/target-paths.ts): a project's model. */
export interface DeliveryModel {
  project: string;
  repoUrl: string;
  tenants: string[];
  environments: { slug: string; kubernetesVersion: string; production?: boolean; syncPolicy?: SyncPolicy }[];
  /** Destination of each `<tenant>/<environment>` (absent: in-cluster, `<tenant>-<environment>`); destinations.ts. */
  destinations?: Map<string, Destination>;
  /** AppProject options of the project (docs/argocd.md). */
  argocd?: { appProjectPerTenant: boolean; clusterResources: boolean };
  /** `rendered`: the files of a workload with a source (chart or kustomize base), by `<tenant>/<environment>`. */
  workloads: { name: string; spec: WorkloadSpec; overrides: WorkloadOverrides; rendered?: RenderedTargets }[];
}

/**
 * `<service>-<tenant>`, a label value, so at most 63 characters: a longer one (service names reach 50 characters,
 * tenant slugs 63) keeps its first 54 characters and a hash of the whole. Shorter ones are unchanged, so selectors of
 * Deployments already applied (immutable) stay as they are.
 */
function instanceLabel(t: Target): string {
  const instance = `${t.service}-${t.tenant}`;
  if (instance.length <= 63) return instance;
  const hash = createHash('sha256').update(instance).digest('hex').slice(0, 8);
  return `${instance.slice(0, 54).replace(/-+$/, '')}-${hash}`;
}

function labels(project: string, t: Target) {
  return {
    'app.kubernetes.io/name': t.service,
    'app.kubernetes.io/instance': instanceLabel(t),
    'app.kubernetes.io/part-of': project,
    'app.kubernetes.io/managed-by': 'delivery-platform',
    'delivery-platform/tenant': t.tenant,
    'delivery-platform/environment': t.environment,
  };
}

function deployment(project: string, t: Target, spec: WorkloadSpec, hasConfig: boolean) {
  const selector = { 'app.kubernetes.io/name': t.service, 'app.kubernetes.io/instance': instanceLabel(t) };
  const container: Record<string, unknown> = { name: t.service, image: `${spec.image.repository}:${spec.image.tag}` };
  if (spec.ports.length > 0) container.ports = spec.ports;
  if (hasConfig) container.envFrom = [{ configMapRef: { name: `${t.service}-config` } }];
  if (Object.keys(spec.resources).length > 0) container.resources = spec.resources;
  if (spec.probes.liveness) container.livenessProbe = spec.probes.liveness;
  if (spec.probes.readiness) container.readinessProbe = spec.probes.readiness;
  if (spec.probes.startup) container.startupProbe = spec.probes.startup;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: t.service, labels: labels(project, t) },
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: selector },
      template: { metadata: { labels: labels(project, t) }, spec: { containers: [container] } },
    },
  };
}

function service(project: string, t: Target, spec: WorkloadSpec) {
  const selector = { 'app.kubernetes.io/name': t.service, 'app.kubernetes.io/instance': instanceLabel(t) };
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: t.service, labels: labels(project, t) },
    spec: {
      selector,
      // The API server wants every port of a Service named when it has several: `<protocol>-<port>` for unnamed ones.
      ports: spec.ports.map((p) => ({
        ...(p.name || spec.ports.length > 1
          ? { name: p.name ?? `${(p.protocol ?? 'TCP').toLowerCase()}-${p.containerPort}` }
          : {}),
        port: p.containerPort,
        targetPort: p.containerPort,
        protocol: p.protocol ?? 'TCP',
      })),
    },
  };
}

/** The generated Deployment, and Service and ConfigMap when the workload has ports and variables: their file names. */
function renderGenerated(model: DeliveryModel, t: Target, spec: WorkloadSpec, files: RenderedFiles): string[] {
  const dir = serviceDir(t);
  const hasConfig = Object.keys(spec.variables).length > 0;
  const resources = ['deployment.yaml'];
  files.setObject(`${dir}/deployment.yaml`, deployment(model.project, t, spec, hasConfig));
  if (spec.ports.length > 0) {
    files.setObject(`${dir}/service.yaml`, service(model.project, t, spec));
    resources.push('service.yaml');
  }
  if (hasConfig) {
    const data = Object.fromEntries(Object.entries(spec.variables).sort(([a], [b]) => (a < b ? -1 : 1)));
    const configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${t.service}-config`, labels: labels(model.project, t) },
      data,
    };
    files.setObject(`${dir}/configmap.yaml`, configMap);
    resources.push('configmap.yaml');
  }
  return resources;
}

/** The files of one target, path -> YAML text, written into `files`. */
function renderTarget(
  model: DeliveryModel,
  workload: DeliveryModel['workloads'][number],
  t: Target,
  files: RenderedFiles,
): void {
  const spec = effectiveSpec(workload.spec, workload.overrides, t.tenant, t.environment);
  const dir = serviceDir(t);
  const resources: string[] = [];
  const rendered = workload.rendered?.get(`${t.tenant}/${t.environment}`);
  if (rendered) {
    for (const { file, content } of rendered) {
      files.set(`${dir}/${file}`, content);
      resources.push(file);
    }
  } else resources.push(...renderGenerated(model, t, spec, files));
  for (const extra of spec.extraManifests ?? []) {
    const file = `extra-${extra.name}.yaml`;
    files.set(`${dir}/${file}`, extra.content.endsWith('\n') ? extra.content : `${extra.content}\n`);
    resources.push(file);
  }
  const source = rendered && spec.source;
  files.set(
    `${dir}/kustomization.yaml`,
    yaml({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      ...(source ? { metadata: { annotations: sourceAnnotations(source, spec) } } : {}),
      resources: resources.sort(),
    }),
  );
  files.set(applicationPath(t), yaml(application(model, t, dir)));
}

/** Every target of the model: each tenant in each environment runs each workload. */
export function targetsOf(model: DeliveryModel): Target[] {
  const targets: Target[] = [];
  for (const tenant of model.tenants)
    for (const env of model.environments)
      for (const w of model.workloads) targets.push({ tenant, environment: env.slug, service: w.name });
  return targets;
}

/**
 * The whole generated tree of a project, or the targets `filter` picks; the project's Argo CD files (AppProjects,
 * bootstrap roots) are part of either, so a release or promotion commits a destination change they carry.
 */
export function renderAll(model: DeliveryModel, filter?: (t: Target) => boolean): RenderedFiles {
  if (filter) return renderTree(model, filter);
  const fingerprint = modelFingerprint(model);
  if (lastWholeTree?.fingerprint !== fingerprint) lastWholeTree = { fingerprint, files: renderTree(model, () => true) };
  return lastWholeTree.files.copy();
}

/**
 * The last whole tree this process rendered, by its model's fingerprint: a generate renders the project to validate
 * it, then the commit path renders the model it loads under the repository's lock to check the digest, and a preview
 * before a generate renders the same model again (issue 46: each render of 1,000 Applications took a second).
 */
let lastWholeTree: { fingerprint: string; files: RenderedFiles } | null = null;

/** A digest of everything a render reads: the model, its Maps (destinations, rendered sources) as entry lists. */
function modelFingerprint(model: DeliveryModel): string {
  const json = JSON.stringify(model, (_key, value: unknown) => (value instanceof Map ? [...value] : value));
  return createHash('sha256').update(json).digest('hex');
}

function renderTree(model: DeliveryModel, filter: (t: Target) => boolean): RenderedFiles {
  const files = new RenderedFiles();
  for (const [path, text] of renderProjectFiles(model)) files.set(path, text);
  const byName = new Map(model.workloads.map((w) => [w.name, w]));
  for (const t of targetsOf(model).filter(filter)) {
    const workload = byName.get(t.service);
    if (workload) renderTarget(model, workload, t, files);
  }
  return files;
}
