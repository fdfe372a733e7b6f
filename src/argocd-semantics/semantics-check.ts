import { serverClusterKey } from './cluster-key';
import { applicationManifests, directoryFiles, plainKustomize, type KustomizeRenderer } from './application-manifests';
import {
  appSpec,
  documentsOf,
  isApplication,
  isArgoObject,
  keyOf,
  nameOf,
  type KubeObject,
  type RepositoryTree,
} from './argo-objects';
import { syncPermissionProblems, type ScopeOf } from './project-permissions';
import { reconcile, type LiveState, type Reconciled } from './root-sync';

/**
 * One Argo CD installation as a person sets it up: the objects applied by hand (what the bootstrap route returns),
 * and the destination cluster it serves (`null`: a hub serving every cluster of the project).
 */
export interface ArgoInstance {
  name: string;
  cluster: string | null;
  applied: KubeObject[];
}

export interface CheckOptions {
  kustomize?: KustomizeRenderer;
  /** Which kinds are cluster-scoped: the Kubernetes schema data (src/validation/kube-scopes.ts kubeScopeOf). */
  scopeOf: ScopeOf;
}

/** The generator's layout (docs/gitops.md): the workload Applications live here, the roots under bootstrap/. */
const APPLICATIONS = 'applications/';
const BOOTSTRAP = 'bootstrap/';
const CLUSTER_LABEL = 'delivery-platform/cluster';

const clusterOf = (app: KubeObject) => {
  const d = appSpec(app).destination ?? {};
  return d.name ?? (d.server ? serverClusterKey(d.server) : '');
};

/** The instance a bootstrap answer sets up: its Argo CD objects (the Secret is no Argo CD object). */
export function instanceOfBootstrap(name: string, yamlText: string): ArgoInstance {
  const applied = documentsOf(yamlText).filter(isArgoObject);
  const root = applied.find(isApplication);
  return { name, cluster: root?.metadata?.labels?.[CLUSTER_LABEL] ?? null, applied };
}

/**
 * The instances a repository describes, from its roots under bootstrap/: a root that includes itself or that no
 * root includes is applied by hand, with the bootstrap AppProject it belongs to. One labelled with a cluster is one
 * Argo CD per cluster; the others (or, when every root names a cluster, all of them, as a hub holding every root
 * would) make one hub Argo CD.
 */
export function instancesOfRepository(tree: RepositoryTree): ArgoInstance[] {
  const files = [...tree.keys()].filter((p) => p.startsWith(BOOTSTRAP)).sort();
  const objects = files.flatMap((f) => documentsOf(tree.get(f) ?? '').map((o) => ({ file: f, o })));
  const roots = objects.filter(({ o }) => isApplication(o) && appSpec(o).source?.directory !== undefined);
  const included = new Map(roots.map(({ o }) => [keyOf(o), new Set(directoryFiles(o, tree))]));
  const entries = roots.filter(
    ({ file, o }) =>
      included.get(keyOf(o))?.has(file) === true ||
      !roots.some(({ o: other }) => other !== o && included.get(keyOf(other))?.has(file)),
  );
  const withProject = (root: KubeObject) => [
    ...objects.filter(({ o }) => o.kind === 'AppProject' && nameOf(o) === appSpec(root).project).map(({ o }) => o),
    root,
  ];
  const perCluster = entries.filter(({ o }) => o.metadata?.labels?.[CLUSTER_LABEL]);
  const hub = entries.filter(({ o }) => !o.metadata?.labels?.[CLUSTER_LABEL]);
  const instances: ArgoInstance[] = perCluster.map(({ o }) => ({
    name: `argocd of ${o.metadata?.labels?.[CLUSTER_LABEL] ?? ''} (applies ${nameOf(o)})`,
    cluster: o.metadata?.labels?.[CLUSTER_LABEL] ?? null,
    applied: withProject(o),
  }));
  const hubRoots = hub.length > 0 ? hub : perCluster;
  if (hubRoots.length > 0) {
    const applied = [...new Map(hubRoots.flatMap(({ o }) => withProject(o)).map((o) => [keyOf(o), o])).values()];
    instances.push({
      name: `hub argocd (applies ${hubRoots.map(({ o }) => nameOf(o)).join(', ')})`,
      cluster: null,
      applied,
    });
  }
  return instances;
}

/** Applies the instance's objects by hand (tracked to nobody), then lets Argo CD follow each tree in turn. */
export function simulate(instance: ArgoInstance, trees: RepositoryTree[], options: CheckOptions): Reconciled {
  let live: LiveState = new Map(instance.applied.map((o) => [keyOf(o), { object: o, owner: null }]));
  let result: Reconciled = { live, claims: new Map() };
  for (const tree of trees) {
    result = reconcile(live, tree, options.kustomize ?? plainKustomize);
    live = result.live;
  }
  return result;
}

function expectedApplications(instance: ArgoInstance, tree: RepositoryTree): Set<string> {
  const apps = [...tree]
    .filter(([p]) => p.startsWith(APPLICATIONS))
    .flatMap(([, text]) => documentsOf(text).filter(isApplication));
  return new Set(apps.filter((a) => instance.cluster === null || clusterOf(a) === instance.cluster).map(keyOf));
}

/**
 * What a real Argo CD would refuse or get wrong at the end of `trees`, for one instance: a sync its AppProject does
 * not permit (the auto-created Namespace included), an object two roots include, an object no root manages (Git
 * changes never reach it), an Application of the repository the instance never creates, or one that survives
 * although Git no longer has it for this instance.
 */
export function instanceFindings(instance: ArgoInstance, trees: RepositoryTree[], options: CheckOptions): string[] {
  const tree = trees[trees.length - 1] ?? new Map<string, string>();
  const { live, claims } = simulate(instance, trees, options);
  const { scopeOf } = options;
  const findings: string[] = [];
  const workload = new Set<string>();
  for (const [key, { object, owner }] of [...live].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (owner === null || !live.has(owner))
      findings.push(`${key} is managed by no root: later commits never change it`);
    if (!isApplication(object)) continue;
    const manifests = applicationManifests(object, tree, options.kustomize ?? plainKustomize);
    if (!manifests.some(isArgoObject)) workload.add(key);
    const project = live.get(`AppProject/${appSpec(object).project ?? 'default'}`)?.object;
    findings.push(...syncPermissionProblems(object, project, manifests, scopeOf));
  }
  for (const [key, roots] of [...claims].sort(([a], [b]) => (a < b ? -1 : 1)))
    if (roots.length > 1) findings.push(`${key} has ${roots.length} owners: ${roots.join(', ')}`);
  const expected = expectedApplications(instance, tree);
  for (const key of [...expected].sort())
    if (!live.has(key)) findings.push(`${key} is in Git but no root reachable from the bootstrap creates it`);
  for (const key of [...workload].sort())
    if (!expected.has(key)) findings.push(`${key} is live but Git no longer has it for this Argo CD (stale)`);
  return findings;
}

/** The check of one repository: each instance it describes, with what a real Argo CD would get wrong there. */
export function checkRepository(
  tree: RepositoryTree,
  options: CheckOptions,
): { instance: string; findings: string[] }[] {
  return instancesOfRepository(tree).map((i) => ({ instance: i.name, findings: instanceFindings(i, [tree], options) }));
}
