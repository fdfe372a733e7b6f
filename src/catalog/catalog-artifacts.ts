import type { CatalogKind } from './catalog-repository';

/**
 * How kustomize bases and manifest bundles appear in the organization registry (docs/registry.md): repository
 * `<org>/<prefix><name>`, tag = version, an OCI image manifest whose config media type (its artifact type) names the
 * kind, one layer per file with its path in the `org.opencontainers.image.title` annotation.
 */
export const CATALOG_ARTIFACTS: Record<CatalogKind, { prefix: string; configMediaType: string }> = {
  'kustomize-base': {
    prefix: 'kustomize-bases/',
    configMediaType: 'application/vnd.delivery-platform.kustomize-base.config.v1+json',
  },
  'manifest-bundle': {
    prefix: 'manifest-bundles/',
    configMediaType: 'application/vnd.delivery-platform.manifest-bundle.config.v1+json',
  },
};

/** The media type of the file layers the platform writes (pushes may use any layer media type). */
export const CATALOG_FILE_LAYER = 'application/vnd.delivery-platform.file.v1';

/** Manifest annotation a push may carry to choose the Kubernetes version it is validated against. */
export const KUBERNETES_VERSION_ANNOTATION = 'io.delivery-platform.kubernetes-version';

/** The catalog kind a repository name belongs to, and the artifact's name inside it. */
export function catalogTargetOf(repository: string): { kind: CatalogKind; name: string } | null {
  for (const [kind, { prefix }] of Object.entries(CATALOG_ARTIFACTS) as [CatalogKind, { prefix: string }][]) {
    if (repository.startsWith(prefix)) return { kind, name: repository.slice(prefix.length) };
  }
  return null;
}
