import { IN_CLUSTER_SERVER } from '../projects/argocd-settings';
import {
  API_VERSION,
  appProject,
  appProjectName,
  appProjectPath,
  ARGOCD_NAMESPACE,
  BOOTSTRAP_PROJECT_FILE,
  bootstrapProject,
  bootstrapProjectName,
  destinationOf,
  validateConfig,
  VALIDATE_CONFIG_FILE,
  yaml,
} from './argocd-objects';
import { destinationKey } from './destinations';
import type { DeliveryModel } from './manifests';

/**
 * The app-of-apps roots (docs/argocd.md "Bootstrap"). Per destination cluster, a cluster root loads that cluster's
 * Applications. What a person applies, once per Argo CD, is a root that manages itself, so every later commit
 * (a new tenant, a removed binding, a new cluster, a changed root) reaches Argo CD by itself:
 *
 * - one Argo CD per cluster: `bootstrap/per-cluster/<cluster>.yaml` manages itself, the bootstrap AppProject, that
 *   cluster's root and the AppProjects its Applications use;
 * - one hub Argo CD for every cluster: `bootstrap/hub.yaml` manages itself, the bootstrap AppProject, every cluster
 *   root and every AppProject.
 *
 * Each object has one owner per Argo CD, since a root lists paths, never globs another root's objects. Every root
 * carries the resources finalizer: when a cluster leaves the project its roots leave Git, the owner prunes them and
 * the finalizer deletes the Applications they loaded (whose own lack of that finalizer keeps the workloads running).
 * Paths name what a file holds and only ever one cluster, so a root left with an old `include` matches nothing
 * stale.
 */
export const HUB_ROOT_FILE = 'bootstrap/hub.yaml';
export const clusterRootPath = (cluster: string) => `bootstrap/clusters/${cluster}.yaml`;
export const perClusterRootPath = (cluster: string) => `bootstrap/per-cluster/${cluster}.yaml`;
const FINALIZER = 'resources-finalizer.argocd.argoproj.io';

function root(model: DeliveryModel, name: string, cluster: string | null, include: string[]) {
  return {
    apiVersion: API_VERSION,
    kind: 'Application',
    metadata: {
      name,
      namespace: ARGOCD_NAMESPACE,
      labels: {
        'delivery-platform/project': model.project,
        ...(cluster === null ? {} : { 'delivery-platform/cluster': cluster }),
      },
      finalizers: [FINALIZER],
    },
    spec: {
      project: bootstrapProjectName(model),
      source: {
        repoURL: model.repoUrl,
        targetRevision: 'main',
        path: '.',
        // argo-cd matches include with util/glob Match (gobwas/glob, no separators): `{a,b}` lists alternatives.
        directory: { recurse: true, include: include.length === 1 ? include[0] : `{${include.join(',')}}` },
      },
      destination: { server: IN_CLUSTER_SERVER, namespace: ARGOCD_NAMESPACE },
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    },
  };
}

/** Each destination cluster's tenant-and-environment pairs, in model order. */
function pairsByCluster(model: DeliveryModel): Map<string, { tenant: string; pair: string }[]> {
  const clusters = new Map<string, { tenant: string; pair: string }[]>();
  for (const tenant of model.tenants)
    for (const env of model.environments) {
      const { cluster } = destinationOf(model, { tenant, environment: env.slug });
      clusters.set(cluster, [...(clusters.get(cluster) ?? []), { tenant, pair: destinationKey(tenant, env.slug) }]);
    }
  return clusters;
}

/** AppProjects, the bootstrap AppProject, the roots of both topologies and delivery-validate's options: path -> YAML. */
export function renderProjectFiles(model: DeliveryModel): Map<string, string> {
  const files = new Map<string, string>();
  if (model.tenants.length === 0 || model.environments.length === 0 || model.workloads.length === 0) return files;
  const groups = model.argocd?.appProjectPerTenant
    ? model.tenants.map((t) => [appProjectName(model, t), [t]] as const)
    : ([[model.project, model.tenants]] as const);
  for (const [name, tenants] of groups) files.set(appProjectPath(name), yaml(appProject(model, name, [...tenants])));
  files.set(BOOTSTRAP_PROJECT_FILE, yaml(bootstrapProject(model)));
  files.set(VALIDATE_CONFIG_FILE, validateConfig(model));
  const clusters = pairsByCluster(model);
  files.set(
    HUB_ROOT_FILE,
    yaml(
      root(model, `${model.project}-root`, null, [
        HUB_ROOT_FILE,
        BOOTSTRAP_PROJECT_FILE,
        clusterRootPath('*'),
        appProjectPath('*'),
      ]),
    ),
  );
  for (const [cluster, pairs] of clusters) {
    const apps = pairs.map(({ pair }) => `applications/${pair}/*.yaml`);
    files.set(clusterRootPath(cluster), yaml(root(model, `${model.project}-apps-${cluster}`, cluster, apps)));
    const projects = [...new Set(pairs.map(({ tenant }) => appProjectPath(appProjectName(model, tenant))))];
    const own = [perClusterRootPath(cluster), BOOTSTRAP_PROJECT_FILE, clusterRootPath(cluster), ...projects];
    files.set(perClusterRootPath(cluster), yaml(root(model, `${model.project}-root-${cluster}`, cluster, own)));
  }
  return files;
}
