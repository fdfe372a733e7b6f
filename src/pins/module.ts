import type { DomainModule } from '../runtime/domain-module';
import { rollbackRoutes } from '../../api/routes/releases/rollback-routes';

/** What src/pins plugs into the platform (src/runtime/domain-module.ts). */
export const pinsModule = {
  name: 'pins',
  tables: ['target_pins'],
  routes: (services) => rollbackRoutes(services.releases, services.pins, services.projects.tenants),
} satisfies DomainModule;
