import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createPromotionService, type PromotionService } from './promotion-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Promotions as workflows `promotion-<id>` (src/promotions). */
    promotions: PromotionService;
  }
}

/** What src/promotions plugs into the platform (src/runtime/domain-module.ts). */
export const promotionsModule = {
  name: 'promotions',
  tables: ['promotion_approvals', 'promotions'],
  workflows: ['promotionWorkflow'],
  settings: 'promotions',
  reconcilers: (services) => [
    {
      name: 'promotion',
      run: () => services.promotions.reconcile(),
      intervalMs: services.config.promotions.reconcileIntervalMs,
    },
  ],
  services: {
    promotions: provide(['projects', 'sources'], (deps) =>
      createPromotionService({
        ...owned(deps),
        temporal: deps.temporal,
        workflows: deps.workflows,
        projects: deps.projects.projects,
        taskQueuePrefix: deps.config.temporal.taskQueuePrefix,
        timing: {
          recheckMs: deps.config.promotions.recheckMs,
          expiryMs: deps.config.promotions.expiryMs,
          syncTimeoutMs: deps.config.releases.syncTimeoutMs,
          commitPatienceMs: deps.config.gitops.commitPatienceMs,
        },
        publicUrl: deps.config.publicUrl,
        sources: deps.sources,
        namespace: deps.config.temporal.namespace,
        temporalUiUrl: deps.config.releases.temporalUiUrl,
      }),
    ),
  },
  actions: {
    'projects.*.promotions.read': 'viewer',
    'projects.*.promotions.create': 'member',
    'projects.*.promotions.approve': 'member',
    'projects.*.promotions.cancel': 'member',
  },
} satisfies DomainModule;
