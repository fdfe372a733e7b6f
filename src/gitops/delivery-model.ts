import type { Queryable } from '../db/knex';
import { projectBindingRows } from '../clusters/agent-binding-repository';
import { readTogether, type RowsOf, type RowsQuery } from '../db/rows-together';
import { projectEnvironmentRows } from '../projects/project-environment-repository';
import { gitUrlOf } from '../projects/git-url';
import { projectRows, type Project } from '../projects/project-repository';
import { projectTenantRows, type ProjectTenant } from '../projects/project-tenant-repository';
import { workloadRows, type Workload } from '../projects/workload-repository';
import type { ProjectEnvironment } from '../projects/project-environment-repository';
import { resolveDestinations } from './destinations';
import type { DeliveryModel } from './manifests';
import type { WorkloadSources } from './workload-sources';

/** What loading a project needs beside the database: the repository URL's origin and the workload source renderer. */
export interface DeliveryContext {
  publicUrl: string;
  sources: WorkloadSources;
}

/** What the generator renders from, with the rows behind it (tenant ids for audit entries, versions to validate). */
export interface LoadedProject {
  project: Project;
  tenants: ProjectTenant[];
  environments: ProjectEnvironment[];
  workloads: Workload[];
  model: DeliveryModel;
  /** Tenant-and-environment pairs that render to the same cluster and namespace without being allowed to. */
  destinationConflicts: string[];
}

/** A workload as the delivery model renders it. */
export function modelWorkloadOf(w: Workload): DeliveryModel['workloads'][number] {
  return {
    name: w.name,
    spec: {
      image: w.image,
      replicas: w.replicas,
      ports: w.ports,
      resources: w.resources,
      probes: w.probes,
      variables: w.variables,
      ...(w.source ? { source: w.source } : {}),
      ...(w.extraManifests ? { extraManifests: w.extraManifests } : {}),
    },
    overrides: w.overrides,
  };
}

/**
 * The project's delivery model; `workloads` narrows it to those workloads (what a release or promotion changes), so
 * their cost does not grow with the project: the project's own Argo CD files render the same from any non-empty set.
 */
export async function loadProject(
  db: Queryable,
  organizationId: string,
  projectId: string,
  ctx: DeliveryContext,
  workloadNames?: readonly string[],
): Promise<LoadedProject | null> {
  return (await loadProjectWith(db, { organizationId, projectId, ctx, workloadNames }, {})).loaded;
}

/**
 * `loadProject` with other selects of the caller in the same statement (`also`, named apart from the project's own
 * five), and its workloads locked until the transaction ends when `lockWorkloads` says so (issue 46: an image-update
 * batch reads its request rows and marks with the project, and patches the workloads it read without reading them
 * again).
 */
export async function loadProjectWith<P extends Record<string, RowsQuery<unknown>>>(
  db: Queryable,
  target: {
    organizationId: string;
    projectId: string;
    ctx: DeliveryContext;
    workloadNames?: readonly string[];
    lockWorkloads?: boolean;
  },
  also: P,
): Promise<{ loaded: LoadedProject | null; also: RowsOf<P> }> {
  const { organizationId, ctx } = target;
  const own = projectReads(db, target);
  const read = await readTogether(db, { ...also, ...own });
  return {
    loaded: await loadedOf(db, organizationId, ctx, read as unknown as RowsOf<typeof own>),
    also: read as unknown as RowsOf<P>,
  };
}

/** The project's five reads, in one statement (issue 46: a release, promotion or image update loads this before its commit). */
function projectReads(
  db: Queryable,
  target: { organizationId: string; projectId: string; workloadNames?: readonly string[]; lockWorkloads?: boolean },
) {
  const { organizationId, projectId } = target;
  const workloads = workloadRows(db, projectId, target.workloadNames);
  if (target.lockWorkloads) void workloads.query.forUpdate();
  return {
    project: projectRows(db, organizationId, projectId),
    tenants: projectTenantRows(db, organizationId, projectId),
    environments: projectEnvironmentRows(db, projectId),
    workloads,
    bindings: projectBindingRows(db, organizationId, projectId),
  };
}

async function loadedOf(
  db: Queryable,
  organizationId: string,
  ctx: DeliveryContext,
  read: RowsOf<ReturnType<typeof projectReads>>,
): Promise<LoadedProject | null> {
  const [project] = read.project;
  if (!project) return null;
  const { tenants, environments, workloads } = read;
  const tenantSlugs = new Map(tenants.map((t) => [t.id, t.slug]));
  const envSlugs = new Map(environments.map((e) => [e.id, e.environment]));
  const slugsOf = (ids: string[], slugs: Map<string, string>) =>
    ids.flatMap((id) => (slugs.has(id) ? [slugs.get(id) as string] : []));
  const bindings = read.bindings.map((b) => ({
    cluster: b.clusterName,
    tenants: slugsOf(b.tenantIds, tenantSlugs),
    environments: slugsOf(b.environmentIds, envSlugs),
  }));
  const { destinations, conflicts } = resolveDestinations({
    project: project.slug,
    tenants,
    environments: environments.map((e) => ({ slug: e.environment, destination: e.destination })),
    namespaceTemplate: project.argocd.namespaceTemplate,
    bindings,
  });
  const model: DeliveryModel = {
    project: project.slug,
    repoUrl: gitUrlOf(ctx.publicUrl, project),
    tenants: tenants.map((t) => t.slug),
    environments: environments.map((e) => ({
      slug: e.environment,
      kubernetesVersion: e.kubernetesVersion,
      production: e.production,
      syncPolicy: e.syncPolicy,
    })),
    destinations,
    argocd: {
      appProjectPerTenant: project.argocd.appProject.perTenant,
      clusterResources: project.argocd.appProject.clusterResources,
    },
    workloads: workloads.map(modelWorkloadOf),
  };
  const rendered = await ctx.sources.render(db, organizationId, model);
  for (const w of model.workloads) {
    const targets = rendered.get(w.name);
    if (targets) w.rendered = targets;
  }
  return { project, tenants, environments, workloads, model, destinationConflicts: conflicts };
}
