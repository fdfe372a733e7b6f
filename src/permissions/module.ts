import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createGrantService, type GrantService } from './grant-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    grants: GrantService;
  }
}

/** What src/permissions plugs into the platform (src/runtime/domain-module.ts). */
export const permissionsModule = {
  name: 'permissions',
  tables: ['resource_grants'],
  services: {
    grants: provide([], (core) => createGrantService(owned(core))),
  },
  actions: {
    'org.permissions.read': 'admin',
    'org.permissions.create': 'admin',
    'org.permissions.update': 'admin',
    'org.permissions.delete': 'admin',
  },
} satisfies DomainModule;
