import path from 'node:path';
import { repoRoot } from '../paths';
import { loadBundle } from './registry/bundle-loader';
import { SUPPORTED_K8S_VERSIONS } from './versions';
import { ARGO_GROUP } from '../argocd-semantics/argo-objects';
import type { ScopeOf } from '../argocd-semantics/project-permissions';

let clusterScoped: Set<string> | undefined;

/**
 * Cluster-scoped kinds of the newest supported Kubernetes release, from its schema bundle (schemas/k8s: a kind is
 * namespaced when its REST paths live under /namespaces/{namespace}/). Kinds the bundle does not know (custom
 * resources) count as namespaced, and Argo CD's own kinds are namespaced.
 */
export const kubeScopeOf: ScopeOf = (group, kind) => {
  if (!clusterScoped) {
    const version = SUPPORTED_K8S_VERSIONS[SUPPORTED_K8S_VERSIONS.length - 1] ?? '';
    const bundle = loadBundle(path.join(repoRoot(), 'schemas', 'k8s'), version);
    clusterScoped = new Set(bundle.resources.filter((r) => r.namespaced === false).map((r) => `${r.group}/${r.kind}`));
  }
  return group !== ARGO_GROUP && clusterScoped.has(`${group}/${kind}`) ? 'cluster' : 'namespaced';
};
