/**
 * Argo CD settings of a project and its environments (docs/argocd.md): where each environment's Applications deploy
 * and how they sync. Stored as JSONB (`projects.argocd`, `project_environments.argocd`); absent fields take the
 * defaults below, so the API shows the effective values.
 */

/** Placeholders a namespace template may use; anything else is lowercase letters, digits and `-`. */
export const NAMESPACE_PLACEHOLDERS = ['project', 'tenant', 'environment'] as const;
export const DEFAULT_NAMESPACE_TEMPLATE = '{tenant}-{environment}';
export { IN_CLUSTER_SERVER } from '../argocd-semantics/cluster-key';

export interface SyncPolicy {
  /** Argo CD syncs by itself on every change (false: a person presses Sync). */
  automated: boolean;
  /** Automated sync deletes objects removed from Git. */
  prune: boolean;
  /** Automated sync reverts changes made in the cluster. */
  selfHeal: boolean;
  /** Argo CD sync options, e.g. `CreateNamespace=true`, `ServerSideApply=true`. */
  syncOptions: string[];
}

/** What is stored per project environment; every field optional. */
export interface EnvironmentArgoSettings {
  destination?: {
    /** Overrides the project's template for this environment. */
    namespaceTemplate?: string;
    /** An explicit destination cluster by API server URL, instead of the bound cluster. */
    server?: string;
    /** This environment may render objects to a cluster and namespace another environment uses too. */
    allowSharedNamespace?: boolean;
  };
  syncPolicy?: Partial<SyncPolicy>;
}

/** What is stored per project. */
export interface ProjectArgoSettings {
  /** Namespace template of every environment without its own (default `{tenant}-{environment}`). */
  namespaceTemplate?: string;
  appProject?: {
    /** One AppProject per tenant (`<project>-<tenant>`) instead of one per project. */
    perTenant?: boolean;
    /** Cluster-scoped resources (Namespaces, CRDs, ClusterRoles) allowed; default none. */
    clusterResources?: boolean;
  };
}

/**
 * Safe defaults: production syncs automatically but never prunes nor reverts by itself unless chosen; other
 * environments prune and self-heal. Every environment creates its namespace.
 */
export function defaultSyncPolicy(production: boolean): SyncPolicy {
  return { automated: true, prune: !production, selfHeal: !production, syncOptions: ['CreateNamespace=true'] };
}

export function effectiveSyncPolicy(settings: EnvironmentArgoSettings, production: boolean): SyncPolicy {
  return { ...defaultSyncPolicy(production), ...settings.syncPolicy };
}

const TEMPLATE = /^(?:[a-z0-9-]|\{(?:project|tenant|environment)\})+$/;

export function isNamespaceTemplate(template: string): boolean {
  return template.length <= 100 && TEMPLATE.test(template);
}
