import { dumpFileYaml } from '../parse/file-yaml';
import { defaultSyncPolicy, IN_CLUSTER_SERVER, type SyncPolicy } from '../projects/argocd-settings';
import { applicationName } from '../delivery-layout/application-name';
import { destinationKey, namespaceOf, type Destination } from './destinations';
import type { DeliveryModel } from './manifests';
import type { Target } from '../delivery-layout/target-paths';

/**
 * The Argo CD objects the generator writes (docs/argocd.md): one Application per target, one AppProject per project
 * (or per tenant); the roots that bring them into Argo CD are in argocd-roots.ts. All live in Argo CD's namespace.
 */
export const ARGOCD_NAMESPACE = 'argocd';
export const BOOTSTRAP_PROJECT_FILE = 'bootstrap/appproject.yaml';

export const API_VERSION = 'argoproj.io/v1alpha1';

/** A generated file's YAML text (a 1,000-Application generate writes 5,000 of them). */
export const yaml = dumpFileYaml;

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
export const bootstrapProjectName = (model: Pick<DeliveryModel, 'project'>) => `${model.project}-bootstrap`;

export function syncPolicyOf(model: DeliveryModel, environment: string): SyncPolicy {
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

export function appProject(model: DeliveryModel, name: string, tenants: string[]) {
  const destinations = byJson(
    tenants.flatMap((tenant) =>
      model.environments.map((e) => destinationOf(model, { tenant, environment: e.slug }).argo),
    ),
  );
  return {
    apiVersion: API_VERSION,
    kind: 'AppProject',
    metadata: { name, namespace: ARGOCD_NAMESPACE, labels: { 'delivery-platform/project': model.project } },
    spec: {
      description: `Delivery platform project ${model.project}${tenants.length === 1 ? `, tenant ${tenants[0]}` : ''}`,
      sourceRepos: [model.repoUrl],
      destinations,
      clusterResourceWhitelist: clusterResourceWhitelist(model, tenants),
      namespaceResourceWhitelist: [{ group: '*', kind: '*' }],
    },
  };
}

/**
 * The cluster-scoped kinds the project's Applications may sync (docs/argocd.md "AppProject"). `clusterResources: true`
 * allows every one. Otherwise the only cluster-scoped object the repository makes is the destination Namespace that
 * Argo CD creates for `CreateNamespace=true`: gitops-engine adds it as a sync task (pkg/sync/sync_context.go
 * getSyncTasks) and argo-cd checks it against this list like any resource (app_project_types.go
 * IsGroupKindNamePermitted, via controller/sync.go), so without an entry the first sync fails with
 * `resource :Namespace is not permitted`. Each entry names one namespace (`name`, Go filepath.Match syntax: a DNS
 * label is its own exact pattern), so the project can create its own namespaces and no other one.
 */
function clusterResourceWhitelist(model: DeliveryModel, tenants: string[]) {
  if (model.argocd?.clusterResources) return [{ group: '*', kind: '*' }];
  const namespaces = tenants.flatMap((tenant) =>
    model.environments
      .filter((e) => syncPolicyOf(model, e.slug).syncOptions.includes('CreateNamespace=true'))
      .map((e) => destinationOf(model, { tenant, environment: e.slug }).argo.namespace),
  );
  return [...new Set(namespaces)].sort().map((name) => ({ group: '', kind: 'Namespace', name }));
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

/** delivery-validate's options file: each environment's folders at its Kubernetes version (docs/validate-cli.md). */
export const VALIDATE_CONFIG_FILE = '.delivery-validate.json';

export function validateConfig(model: DeliveryModel): string {
  const versionFor = model.environments.map((e) => `tenants/*/${e.slug}/**=${e.kubernetesVersion}`);
  return `${JSON.stringify({ versionFor }, null, 2)}\n`;
}
