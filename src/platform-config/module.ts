import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createEnvironmentService, type EnvironmentService } from './environment-service';
import { createTenantService, type TenantService } from './tenant-service';
import { platformConfigRoutes } from '../../api/routes/platform-config/platform-config-routes';

declare module '../runtime/service-provider' {
  interface DomainServices {
    environments: EnvironmentService;
    tenants: TenantService;
  }
}

/** What src/platform-config plugs into the platform (src/runtime/domain-module.ts). */
export const platformConfigModule = {
  name: 'platform-config',
  tables: ['org_environments', 'org_tenants'],
  routes: (services) => platformConfigRoutes(services, services.config.orgs.pageMax),
  services: {
    environments: provide([], (core) => createEnvironmentService(owned(core))),
    tenants: provide([], (core) => createTenantService(owned(core))),
  },
} satisfies DomainModule;
