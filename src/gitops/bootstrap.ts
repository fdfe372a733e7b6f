import { NotFound } from '../errors';
import { ARGOCD_NAMESPACE, BOOTSTRAP_PROJECT_FILE, yaml } from './argocd-objects';
import { HUB_ROOT_FILE, perClusterRootPath } from './argocd-roots';
import type { LoadedProject } from './delivery-model';
import { dnsLabel } from './destinations';
import { renderAll, type DeliveryModel } from './manifests';

/** What the repository credential Secret holds when the caller did not authenticate with a read-scoped key. */
export const REPOSITORY_KEY_PLACEHOLDER = '${REPOSITORY_API_KEY}';

/**
 * The Argo CD objects a person applies once to one Argo CD (docs/argocd.md "Bootstrap"): the bootstrap AppProject
 * and the root that manages itself, as the generator writes them into the repository. `cluster` set: the Argo CD of
 * that one destination cluster; null: a hub Argo CD deploying to every cluster of the project. A cluster that is no
 * destination of the project is 404.
 */
export function bootstrapDocuments(model: DeliveryModel, cluster: string | null): string[] {
  const files = renderAll(model, () => false);
  const root = files.get(cluster === null ? HUB_ROOT_FILE : perClusterRootPath(cluster));
  if (!root) throw new NotFound(`cluster ${cluster ?? 'hub'} is not a destination of the project`);
  return [files.get(BOOTSTRAP_PROJECT_FILE) ?? '', root];
}

/**
 * The manifests to apply: the repository credential Secret (a read-scoped project API key as the password, never a
 * user's expiring token) and the bootstrap documents, as one multi-document YAML.
 */
export function bootstrapManifests(loaded: LoadedProject, cluster: string | null, key: string | null): string {
  const { project, model } = loaded;
  const documents = bootstrapDocuments(model, cluster);
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
  return [yaml(secret), ...documents].join('---\n');
}
