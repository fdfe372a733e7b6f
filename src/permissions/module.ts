import type { DomainModule } from '../runtime/domain-module';
import { permissionRoutes } from '../../api/routes/permissions/permission-routes';

/** What src/permissions plugs into the platform (src/runtime/domain-module.ts). */
export const permissionsModule = {
  name: 'permissions',
  tables: ['resource_grants'],
  routes: (services) => permissionRoutes(services.grants, services.config.orgs.pageMax),
} satisfies DomainModule;
