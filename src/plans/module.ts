import type { DomainModule } from '../runtime/domain-module';
import { planAdminRoutes } from '../../api/routes/plans/plan-admin-routes';

/** What src/plans plugs into the platform (src/runtime/domain-module.ts). */
export const plansModule = {
  name: 'plans',
  tables: [],
  routes: (services) => planAdminRoutes(services),
} satisfies DomainModule;
