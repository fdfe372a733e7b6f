import { resolveDestinations, type ClusterBindingRef } from '../../../src/gitops/destinations';
import type { DeliveryModel } from '../../../src/gitops/manifests';
import { defaultSyncPolicy, type SyncPolicy } from '../../../src/projects/argocd-settings';

/** Delivery models for the Argo CD tests: a project `shop` with tenants, environments and cluster bindings. */
export interface ModelShape {
  tenants: string[];
  environments: string[];
  bindings: ClusterBindingRef[];
  perTenant?: boolean;
  clusterResources?: boolean;
  syncPolicy?: Record<string, SyncPolicy>;
}

/** The one workload of the test models. */
export const SPEC = {
  image: { repository: 'registry.example.com/shop/api', tag: '1.0.0' },
  replicas: 1,
  ports: [{ containerPort: 8080 }],
  resources: {},
  probes: {},
  variables: { MODE: 'live' },
};

export const REPO_URL = 'http://127.0.0.1:8080/git/r/acme/shop.git';

export function deliveryModel(shape: ModelShape): DeliveryModel {
  const { destinations } = resolveDestinations({
    project: 'shop',
    tenants: shape.tenants.map((slug) => ({ slug, namespaceTemplate: null })),
    environments: shape.environments.map((slug) => ({
      slug,
      destination: { namespaceTemplate: null, server: null, allowSharedNamespace: false },
    })),
    bindings: shape.bindings,
  });
  return {
    project: 'shop',
    repoUrl: REPO_URL,
    tenants: shape.tenants,
    environments: shape.environments.map((slug) => ({
      slug,
      kubernetesVersion: '1.31',
      production: slug === 'production',
      syncPolicy: shape.syncPolicy?.[slug] ?? defaultSyncPolicy(slug === 'production'),
    })),
    destinations,
    argocd: { appProjectPerTenant: shape.perTenant ?? false, clusterResources: shape.clusterResources ?? false },
    workloads: [{ name: 'api', spec: SPEC, overrides: {} }],
  };
}

/** The acceptance repository: 2 tenants, 3 environments, staging and production on their own clusters. */
export const ACCEPTANCE: ModelShape = {
  tenants: ['acme', 'globex'],
  environments: ['dev', 'staging', 'production'],
  bindings: [
    { cluster: 'eu-staging', tenants: [], environments: ['staging'] },
    { cluster: 'eu-prod', tenants: [], environments: ['production'] },
  ],
};
