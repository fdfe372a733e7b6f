import { parseYamlDocuments } from '../parse/bounded-parse';

/** A Kubernetes object as Argo CD reads it from a repository (only the fields the semantics check looks at). */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; finalizers?: string[] };
  spec?: Record<string, unknown>;
}

export interface Destination {
  server?: string;
  name?: string;
  namespace?: string;
}

export interface ApplicationSpec {
  project?: string;
  source?: {
    repoURL?: string;
    path?: string;
    directory?: { recurse?: boolean; include?: string; exclude?: string };
  };
  destination?: Destination;
  syncPolicy?: { automated?: { prune?: boolean; selfHeal?: boolean }; syncOptions?: string[] };
}

export interface ResourceRef {
  group: string;
  kind: string;
  name?: string;
}

export interface AppProjectSpec {
  sourceRepos?: string[];
  destinations?: Destination[];
  clusterResourceWhitelist?: ResourceRef[];
  clusterResourceBlacklist?: ResourceRef[];
  namespaceResourceWhitelist?: ResourceRef[];
  namespaceResourceBlacklist?: ResourceRef[];
}

/** A repository at one commit: path -> file text. */
export type RepositoryTree = ReadonlyMap<string, string>;

/** Argo CD's finalizer that makes deleting an Application delete what it manages first (cascade). */
export const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';
export const ARGO_GROUP = 'argoproj.io';

export const groupOf = (o: KubeObject) => (o.apiVersion?.includes('/') ? (o.apiVersion.split('/')[0] ?? '') : '');
export const nameOf = (o: KubeObject) => o.metadata?.name ?? '';
/** Argo CD objects are keyed by kind and name: they all live in Argo CD's own namespace. */
export const keyOf = (o: KubeObject) => `${o.kind ?? ''}/${nameOf(o)}`;
export const isApplication = (o: KubeObject) => o.kind === 'Application' && groupOf(o) === ARGO_GROUP;
export const isAppProject = (o: KubeObject) => o.kind === 'AppProject' && groupOf(o) === ARGO_GROUP;
export const isArgoObject = (o: KubeObject) => isApplication(o) || isAppProject(o);
export const appSpec = (o: KubeObject) => (o.spec ?? {}) as ApplicationSpec;
export const projectSpec = (o: KubeObject) => (o.spec ?? {}) as AppProjectSpec;

/** The documents of one YAML file, parsed with the bounded parser; a file that does not parse holds none (the schema check reports it). */
export function documentsOf(text: string): KubeObject[] {
  try {
    return parseYamlDocuments(text, 'manifest').filter(
      (d): d is KubeObject => typeof d === 'object' && d !== null && !Array.isArray(d),
    );
  } catch {
    return [];
  }
}
