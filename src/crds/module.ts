import type { DomainModule } from '../runtime/domain-module';
import { k8sRoutes } from '../../api/routes/k8s/k8s-routes';

/** What src/crds plugs into the platform (src/runtime/domain-module.ts). */
export const crdsModule = {
  name: 'crds',
  tables: ['custom_resource_definitions'],
  routes: (services) => k8sRoutes(services),
} satisfies DomainModule;
