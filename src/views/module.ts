import type { DomainModule } from '../runtime/domain-module';
import { iamRoutes } from '../../api/routes/iam/iam-routes';

/** What src/views plugs into the platform (src/runtime/domain-module.ts). */
export const viewsModule = {
  name: 'views',
  tables: [],
  routes: (services) =>
    iamRoutes({ iam: services.iamViews, audit: services.audit, auditPageMax: services.config.auditPageMax }),
} satisfies DomainModule;
