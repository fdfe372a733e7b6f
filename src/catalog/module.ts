import type { DomainModule } from '../runtime/domain-module';
import { catalogRoutes } from '../../api/routes/catalog/catalog-routes';

/** What src/catalog plugs into the platform (src/runtime/domain-module.ts). */
export const catalogModule = {
  name: 'catalog',
  tables: ['catalog_artifacts'],
  routes: (services) => [
    ...catalogRoutes(
      services.kustomizeBases,
      { path: '/api/v2/org-kustomize-bases', actionPrefix: 'org.kustomize-bases', label: 'kustomize base' },
      services.config.orgs.pageMax,
    ),
    ...catalogRoutes(
      services.manifestBundles,
      { path: '/api/v2/org-manifest-bundles', actionPrefix: 'org.manifest-bundles', label: 'manifest bundle' },
      services.config.orgs.pageMax,
    ),
  ],
} satisfies DomainModule;
