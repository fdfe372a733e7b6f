import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { kustomizeBuild } from '../tools/kustomize-build';
import { createCatalogService, type CatalogService } from './catalog-service';
import { catalogRegistryHook } from './catalog-registry-hook';
import { BASE_BUILD_LIMITS } from './catalog-validation';
import type { CatalogKind } from './catalog-repository';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Versioned kustomize bases and manifest bundles of the organization (validated on upload), by kind. */
    catalogs: Record<CatalogKind, CatalogService>;
    kustomizeBases: CatalogService;
    manifestBundles: CatalogService;
  }
}

/** What src/catalog plugs into the platform (src/runtime/domain-module.ts). */
export const catalogModule = {
  name: 'catalog',
  tables: ['catalog_artifacts'],
  services: {
    catalogs: provide(['registry', 'blobs', 'renderers'], (deps) => {
      const buildBase = (organizationId: string, files: Record<string, string>) =>
        kustomizeBuild(deps.renderers, organizationId, files, BASE_BUILD_LIMITS);
      const catalogDeps = { ...owned(deps), validation: deps.validation, registry: deps.registry, buildBase };
      const catalogs = {
        'kustomize-base': createCatalogService(catalogDeps, 'kustomize-base'),
        'manifest-bundle': createCatalogService(catalogDeps, 'manifest-bundle'),
      };
      deps.registry.addManifestHook(catalogRegistryHook({ blobs: deps.blobs, catalogs }));
      return catalogs;
    }),
    kustomizeBases: provide(['catalogs'], (deps) => deps.catalogs['kustomize-base']),
    manifestBundles: provide(['catalogs'], (deps) => deps.catalogs['manifest-bundle']),
  },
  actions: {
    // Kustomize bases and manifest bundles (/api/v2/org-kustomize-bases, /api/v2/org-manifest-bundles): reading for every
    // member, uploading and deleting versions for members.
    'org.kustomize-bases.read': 'viewer',
    'org.kustomize-bases.push': 'member',
    'org.kustomize-bases.delete': 'member',
    'org.manifest-bundles.read': 'viewer',
    'org.manifest-bundles.push': 'member',
    'org.manifest-bundles.delete': 'member',
  },
} satisfies DomainModule;
