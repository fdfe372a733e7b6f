import { dumpYaml } from '../parse/bounded-parse';
import { defaultSyncPolicy, IN_CLUSTER_SERVER, type SyncPolicy } from '../projects/argocd-settings';
import { applicationName } from './application-name';
import { destinationKey, namespaceOf, type Destination } from './destinations';
import type { DeliveryModel, Target } from './manifests';

/**
 * The Argo CD objects the generator writes (docs/argocd.md): one Application per target, one AppProject per project
 * (or per tenant), and per destination cluster one app-of-apps root Application with the bootstrap AppProject it
 * belongs to. All live in Argo CD's namespace.
 */
export const ARGOCD_NAMESPACE = 'argocd';
export const BOOTSTRAP_PROJECT_FILE = 'bootstrap/appproject.yaml';

const API_VERSION = 'argoproj.io/v1alpha1';

// js-yaml: several times faster than `yaml` at dumping, which a 1,000-Application generate does 5,000 times.
export const yaml = (doc: unknown) => dumpYaml(doc, { lineWidth: -1, noRefs: true, quotingType: '"' });

/** The destination of a target; without resolved destinations, the documented default. */
export function destinationOf(model: DeliveryModel, t: Pick<Target, 'tenant' | 'environment'>): Destination {
  return (
    model.destinations?.get(destinationKey(t.tenant, t.environment)) ?? {
      cluster: 'in-cluster',
      argo: {
        server: IN_CLUSTER_SERVER,
        namespace: namespaceOf('{tenant}-{environment}', { project: model.project, ...t }),
      },
    }
  );
}

export function appProjectName(model: DeliveryModel, tenant: string): string {
  return model.argocd?.appProjectPerTenant ? `${model.project}-${tenant}` : model.project;
}

export const appProjectPath = (name: string) => `appprojects/${name}.yaml`;
export const bootstrapPath = (cluster: string) => `bootstrap/${cluster}.yaml`;
export const bootstrapProjectName = (model: Pick<DeliveryModel, 'project'>) => `${model.project}-bootstrap`;
export const rootName = (model: Pick<DeliveryModel, 'project'>, cluster: string) => `${model.project}-root-${cluster}`;

function syncPolicyOf(model: DeliveryModel, environment: string): SyncPolicy {
  const env = model.environments.find((e) => e.slug === environment);
  return env?.syncPolicy ?? defaultSyncPolicy(env?.production ?? false);
}

export function application(model: DeliveryModel, t: Target, path: string) {
  const sync = syncPolicyOf(model, t.environment);
  return {
    apiVersion: API_VERSION,
    kind: 'Application',
    metadata: {
      name: applicationName({ project: model.project, ...t }),
      namespace: ARGOCD_NAMESPACE,
      labels: {
        'delivery-platform/project': model.project,
        'delivery-platform/tenant': t.tenant,
        'delivery-platform/environment': t.environment,
        'delivery-platform/service': t.service,
      },
    },
    spec: {
      project: appProjectName(model, t.tenant),
      source: { repoURL: model.repoUrl, targetRevision: 'main', path },
      destination: destinationOf(model, t).argo,
      syncPolicy: {
        ...(sync.automated ? { automated: { prune: sync.prune, selfHeal: sync.selfHeal } } : {}),
        ...(sync.syncOptions.length > 0 ? { syncOptions: sync.syncOptions } : {}),
      },
    },
  };
}

const byJson = <T>(items: T[]) =>
  [...new Map(items.map((i) => [JSON.stringify(i), i])).values()].sort((a, b) =>
    JSON.stringify(a) < JSON.stringify(b) ? -1 : 1,
  );

function appProject(model: DeliveryModel, name: string, tenants: string[]) {
  const destinations = byJson(
    tenants.flatMap((tenant) =>
      model.environments.map((e) => destinationOf(model, { tenant, environment: e.slug }).argo),
    ),
  );
  const clusterResources = model.argocd?.clusterResources ?? false;
  return {
    apiVersion: API_VERSION,
    kind: 'AppProject',
    metadata: { name, namespace: ARGOCD_NAMESPACE, labels: { 'delivery-platform/project': model.project } },
    spec: {
      description: `Delivery platform project ${model.project}${tenants.length === 1 ? `, tenant ${tenants[0]}` : ''}`,
      sourceRepos: [model.repoUrl],
      destinations,
      clusterResourceWhitelist: clusterResources ? [{ group: '*', kind: '*' }] : [],
      namespaceResourceWhitelist: [{ group: '*', kind: '*' }],
    },
  };
}

/** The AppProject the root Applications belong to: it may only create Applications and AppProjects in argocd. */
export function bootstrapProject(model: Pick<DeliveryModel, 'project' | 'repoUrl'>) {
  return {
    apiVersion: API_VERSION,
    kind: 'AppProject',
    metadata: { name: bootstrapProjectName(model), namespace: ARGOCD_NAMESPACE },
    spec: {
      description: `Bootstrap of delivery platform project ${model.project}: its Applications and AppProjects`,
      sourceRepos: [model.repoUrl],
      destinations: [{ server: IN_CLUSTER_SERVER, namespace: ARGOCD_NAMESPACE }],
      clusterResourceWhitelist: [],
      namespaceResourceWhitelist: [
        { group: 'argoproj.io', kind: 'Application' },
        { group: 'argoproj.io', kind: 'AppProject' },
      ],
    },
  };
}

/**
 * The app-of-apps root of one destination cluster: a directory Application over the AppProjects and the Application
 * files of the tenant-and-environment pairs that deploy there.
 */
export function rootApplication(model: DeliveryModel, cluster: string, pairs: string[]) {
  const include = ['appprojects/*.yaml', ...pairs.map((pair) => `applications/${pair}/*.yaml`)];
  return {
    apiVersion: API_VERSION,
    kind: 'Application',
    metadata: {
      name: rootName(model, cluster),
      namespace: ARGOCD_NAMESPACE,
      labels: { 'delivery-platform/project': model.project, 'delivery-platform/cluster': cluster },
    },
    spec: {
      project: bootstrapProjectName(model),
      source: {
        repoURL: model.repoUrl,
        targetRevision: 'main',
        path: '.',
        directory: { recurse: true, include: `{${include.join(',')}}` },
      },
      destination: { server: IN_CLUSTER_SERVER, namespace: ARGOCD_NAMESPACE },
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    },
  };
}

/** delivery-validate's options file: each environment's folders at its Kubernetes version (docs/validate-cli.md). */
export const VALIDATE_CONFIG_FILE = '.delivery-validate.json';

function validateConfig(model: DeliveryModel): string {
  const versionFor = model.environments.map((e) => `tenants/*/${e.slug}/**=${e.kubernetesVersion}`);
  return `${JSON.stringify({ versionFor }, null, 2)}\n`;
}

/** AppProjects, the bootstrap AppProject and one root per destination cluster: path -> YAML. */
export function renderProjectFiles(model: DeliveryModel): Map<string, string> {
  const files = new Map<string, string>();
  if (model.tenants.length === 0 || model.environments.length === 0 || model.workloads.length === 0) return files;
  const groups = model.argocd?.appProjectPerTenant
    ? model.tenants.map((t) => [appProjectName(model, t), [t]] as const)
    : ([[model.project, model.tenants]] as const);
  for (const [name, tenants] of groups) files.set(appProjectPath(name), yaml(appProject(model, name, [...tenants])));
  const clusters = new Map<string, string[]>();
  for (const tenant of model.tenants)
    for (const env of model.environments) {
      const { cluster } = destinationOf(model, { tenant, environment: env.slug });
      clusters.set(cluster, [...(clusters.get(cluster) ?? []), destinationKey(tenant, env.slug)]);
    }
  files.set(BOOTSTRAP_PROJECT_FILE, yaml(bootstrapProject(model)));
  files.set(VALIDATE_CONFIG_FILE, validateConfig(model));
  for (const [cluster, pairs] of clusters)
    files.set(bootstrapPath(cluster), yaml(rootApplication(model, cluster, pairs)));
  return files;
}
