import type { DomainModule } from '../runtime/domain-module';
import { platformConfigRoutes } from '../../api/routes/platform-config/platform-config-routes';

/** What src/platform-config plugs into the platform (src/runtime/domain-module.ts). */
export const platformConfigModule = {
  name: 'platform-config',
  tables: ['org_environments', 'org_tenants'],
  routes: (services) => platformConfigRoutes(services, services.config.orgs.pageMax),
} satisfies DomainModule;
