import type { DomainModule } from '../runtime/domain-module';
import { promotionRoutes } from '../../api/routes/promotions/promotion-routes';
import { createPromotionActivities } from '../../activities/promotion';

/** What src/promotions plugs into the platform (src/runtime/domain-module.ts). */
export const promotionsModule = {
  name: 'promotions',
  tables: ['promotion_approvals', 'promotions'],
  workflows: ['promotionWorkflow'],
  settings: 'promotions',
  routes: (services) => promotionRoutes(services.promotions, services.config.orgs.pageMax),
  activities: (deps) => createPromotionActivities(deps),
  reconcilers: (services) => [
    {
      name: 'promotion',
      run: () => services.promotions.reconcile(),
      intervalMs: services.config.promotions.reconcileIntervalMs,
    },
  ],
} satisfies DomainModule;
