import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createEnvironmentService, type EnvironmentService } from './environment-service';
import { createTenantService, type TenantService } from './tenant-service';

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
  services: {
    environments: provide([], (core) => createEnvironmentService(owned(core))),
    tenants: provide([], (core) => createTenantService(owned(core))),
  },
  actions: {
    // Platform configuration.
    'org.features.read': 'viewer',
    'org.environments.read': 'viewer',
    'org.environments.create': 'admin',
    'org.environments.update': 'admin',
    'org.environments.delete': 'admin',
    'org.environments.reorder': 'admin',
    'org.tenants.read': 'viewer',
    'org.tenants.create': 'admin',
    'org.tenants.update': 'admin',
    'org.tenants.delete': 'admin',
  },
} satisfies DomainModule;
