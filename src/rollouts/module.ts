import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createRolloutPlanService, type RolloutPlanService } from './rollout-plan-service';
import { rolloutPlanRoutes } from '../../api/routes/rollouts/rollout-plan-routes';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Rollout plans per project and environment (src/rollouts, docs/rollouts.md). */
    rolloutPlans: RolloutPlanService;
  }
}

/** What src/rollouts plugs into the platform (src/runtime/domain-module.ts): progressive delivery in waves. */
export const rolloutsModule = {
  name: 'rollouts',
  tables: ['rollout_plans', 'rollouts'],
  routes: (services) => rolloutPlanRoutes(services.rolloutPlans),
  services: {
    rolloutPlans: provide(['projects'], (deps) =>
      createRolloutPlanService({ ...owned(deps), projects: deps.projects.projects, tenants: deps.projects.tenants }),
    ),
  },
  actions: {
    // Like the environment's own settings: every member reads the plan, admins set it.
    'projects.*.rollout-plans.read': 'viewer',
    'projects.*.rollout-plans.manage': 'admin',
  },
} satisfies DomainModule;
