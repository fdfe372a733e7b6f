import type { DomainModule } from '../runtime/domain-module';
import { orgChartRoutes } from '../../api/routes/registry/org-chart-routes';

/** What src/registry plugs into the platform (src/runtime/domain-module.ts). */
export const registryModule = {
  name: 'registry',
  tables: ['oci_manifests', 'oci_repositories', 'oci_repository_blobs', 'oci_tags', 'oci_uploads'],
  settings: 'registry',
  routes: (services) => orgChartRoutes(services.charts),
} satisfies DomainModule;
