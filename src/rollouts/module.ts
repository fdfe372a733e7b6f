import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createRolloutPlanService, type RolloutPlanService } from './rollout-plan-service';
import { createRolloutService, type RolloutService } from './rollout-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Rollout plans per project and environment (src/rollouts, docs/rollouts.md). */
    rolloutPlans: RolloutPlanService;
    /** Rollouts as workflows `rollout-<project>-<environment>-<id>`, wave by wave. */
    rollouts: RolloutService;
  }
}

/** A run continues as new at its next step past this many events (the budget is 2,000 per run). */
const ROLLOUT_HISTORY_LIMIT = 1_500;

/** What src/rollouts plugs into the platform (src/runtime/domain-module.ts): progressive delivery in waves. */
export const rolloutsModule = {
  name: 'rollouts',
  tables: ['rollout_plans', 'rollouts'],
  workflows: ['rolloutWorkflow'],
  reconcilers: (services) => [
    {
      name: 'rollout',
      run: () => services.rollouts.reconcile(),
      intervalMs: services.config.promotions.reconcileIntervalMs,
    },
  ],
  services: {
    rolloutPlans: provide(['projects'], (deps) =>
      createRolloutPlanService({ ...owned(deps), projects: deps.projects.projects, tenants: deps.projects.tenants }),
    ),
    rollouts: provide(['projects', 'sources'], (deps) =>
      createRolloutService({
        ...owned(deps),
        temporal: deps.temporal,
        workflows: deps.workflows,
        projects: deps.projects.projects,
        taskQueuePrefix: deps.config.temporal.taskQueuePrefix,
        promotionTiming: {
          recheckMs: deps.config.promotions.recheckMs,
          expiryMs: deps.config.promotions.expiryMs,
          syncTimeoutMs: deps.config.releases.syncTimeoutMs,
          commitPatienceMs: deps.config.gitops.commitPatienceMs,
        },
        historyLimit: ROLLOUT_HISTORY_LIMIT,
        publicUrl: deps.config.publicUrl,
        sources: deps.sources,
      }),
    ),
  },
  actions: {
    // Like the environment's own settings: every member reads the plan, admins set it.
    'projects.*.rollout-plans.read': 'viewer',
    'projects.*.rollout-plans.manage': 'admin',
    // Like promotions: members start (projects.*.promotions.create), pause, resume, abort and approve rollouts.
    'projects.*.rollouts.read': 'viewer',
    'projects.*.rollouts.manage': 'member',
    'projects.*.rollouts.approve': 'member',
  },
} satisfies DomainModule;
