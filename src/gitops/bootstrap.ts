import { NotFound } from '../errors';
import { ARGOCD_NAMESPACE, BOOTSTRAP_PROJECT_FILE, bootstrapPath, yaml } from './argocd-objects';
import type { LoadedProject } from './delivery-model';
import { dnsLabel } from './destinations';
import { renderAll } from './manifests';

/** What the repository credential Secret holds when the caller did not authenticate with a read-scoped key. */
export const REPOSITORY_KEY_PLACEHOLDER = '${REPOSITORY_API_KEY}';

/**
 * The manifests a user applies once to an Argo CD for one destination cluster (docs/argocd.md): the repository
 * credential Secret (a read-scoped project API key as the password, never a user's expiring token), the bootstrap
 * AppProject and the cluster's app-of-apps root, as one multi-document YAML. The two Argo CD objects are the ones the
 * generator writes into the repository under bootstrap/. A cluster that is no destination of the project is 404.
 */
export function bootstrapManifests(loaded: LoadedProject, cluster: string, key: string | null): string {
  const files = renderAll(loaded.model, () => false);
  const root = files.get(bootstrapPath(cluster));
  if (!root) throw new NotFound(`cluster ${cluster} is not a destination of the project`);
  const { project, model } = loaded;
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: dnsLabel(`repo-${project.organizationSlug}-${project.slug}`),
      namespace: ARGOCD_NAMESPACE,
      labels: { 'argocd.argoproj.io/secret-type': 'repository' },
    },
    stringData: { type: 'git', url: model.repoUrl, username: 'api-key', password: key ?? REPOSITORY_KEY_PLACEHOLDER },
  };
  return [yaml(secret), files.get(BOOTSTRAP_PROJECT_FILE) ?? '', root].join('---\n');
}
