import { IN_CLUSTER_SERVER } from './cluster-key';
import { argoGlobMatch, filepathMatch } from './glob-match';
import {
  appSpec,
  groupOf,
  nameOf,
  projectSpec,
  type Destination,
  type KubeObject,
  type ResourceRef,
} from './argo-objects';

/** Whether a group and kind is cluster-scoped (Namespace, ClusterRole, ...), from the Kubernetes schema data. */
export type ScopeOf = (group: string, kind: string) => 'cluster' | 'namespaced';

// argo-cd app_project_types.go isResourceInList / isNamedResourceInList: kind, group and (cluster lists) name are
// each matched with Go's filepath.Match; an entry without a name matches every name.
function inList(list: ResourceRef[], res: ResourceRef, named: boolean): boolean {
  return list.some(
    (item) =>
      filepathMatch(item.kind, res.kind) &&
      filepathMatch(item.group, res.group) &&
      (!named || !item.name || filepathMatch(item.name, res.name ?? '')),
  );
}

/**
 * argo-cd AppProject.IsGroupKindNamePermitted: a namespaced kind is allowed unless a non-empty whitelist misses it or
 * the blacklist has it (an empty list is dropped by the API server's omitempty round trip, so `[]` means none given);
 * a cluster-scoped kind only when the cluster whitelist names it (empty: nothing) and the blacklist does not.
 */
export function isPermitted(project: KubeObject, res: ResourceRef, scope: 'cluster' | 'namespaced'): boolean {
  const spec = projectSpec(project);
  if (scope === 'namespaced') {
    const white = spec.namespaceResourceWhitelist ?? [];
    return (
      (white.length === 0 || inList(white, res, false)) && !inList(spec.namespaceResourceBlacklist ?? [], res, false)
    );
  }
  return (
    inList(spec.clusterResourceWhitelist ?? [], res, true) && !inList(spec.clusterResourceBlacklist ?? [], res, true)
  );
}

// Argo CD resolves a destination `name` to its cluster's server; the in-cluster one has both names.
const sameCluster = (a: Destination, b: Destination) =>
  (a.name !== undefined && b.name !== undefined && argoGlobMatch(a.name, b.name)) ||
  (a.server !== undefined && b.server !== undefined && argoGlobMatch(a.server, b.server)) ||
  (a.name === 'in-cluster' && b.server === IN_CLUSTER_SERVER) ||
  (a.server === IN_CLUSTER_SERVER && b.name === 'in-cluster');

/** argo-cd AppProject.IsDestinationPermitted: a destination entry matching cluster and namespace (globs). */
export function isDestinationPermitted(project: KubeObject, dest: Destination): boolean {
  return (projectSpec(project).destinations ?? []).some(
    (d) => sameCluster(d, dest) && argoGlobMatch(d.namespace ?? '', dest.namespace ?? ''),
  );
}

const describe = (d: Destination) => `${d.name ?? d.server ?? '?'}/${d.namespace ?? ''}`;

/**
 * What stops the first sync of an Application (argo-cd controller/sync.go: the project's destination and resource
 * checks run on every sync task before anything is applied), in Argo CD's own words. With `CreateNamespace=true`
 * gitops-engine adds the destination Namespace as one more task (pkg/sync/sync_context.go getSyncTasks,
 * syncNamespace), checked like any other cluster-scoped resource, named after the namespace.
 */
export function syncPermissionProblems(
  app: KubeObject,
  project: KubeObject | undefined,
  resources: KubeObject[],
  scopeOf: ScopeOf,
): string[] {
  const spec = appSpec(app);
  const projectName = spec.project ?? 'default';
  if (!project) return [`Application ${nameOf(app)}: AppProject ${projectName} does not exist`];
  const dest = spec.destination ?? {};
  const problems: string[] = [];
  const prefix = `Application ${nameOf(app)}:`;
  if (!(projectSpec(project).sourceRepos ?? []).some((r) => argoGlobMatch(r, spec.source?.repoURL ?? '')))
    problems.push(`${prefix} repository ${spec.source?.repoURL ?? ''} is not permitted in project ${projectName}`);
  if (!isDestinationPermitted(project, dest))
    problems.push(`${prefix} destination ${describe(dest)} is not permitted in project ${projectName}`);
  const tasks: { res: ResourceRef; namespace?: string }[] = resources.map((r) => ({
    res: { group: groupOf(r), kind: r.kind ?? '', name: nameOf(r) },
    namespace: r.metadata?.namespace,
  }));
  if ((spec.syncPolicy?.syncOptions ?? []).includes('CreateNamespace=true') && dest.namespace)
    tasks.push({ res: { group: '', kind: 'Namespace', name: dest.namespace } });
  const seen = new Set<string>();
  for (const { res, namespace } of tasks) {
    const scope = scopeOf(res.group, res.kind);
    const message = !isPermitted(project, res, scope)
      ? `resource ${res.group}:${res.kind} is not permitted in project ${projectName}`
      : scope === 'namespaced' && namespace && !isDestinationPermitted(project, { ...dest, namespace })
        ? `namespace ${namespace} of ${res.kind}/${res.name ?? ''} is not permitted in project ${projectName}`
        : null;
    const line = message && `${prefix} ${message}${res.kind === 'Namespace' ? ` (Namespace ${res.name ?? ''})` : ''}`;
    if (line && !seen.has(line)) problems.push(line);
    if (line) seen.add(line);
  }
  return problems;
}
