import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { taskQueue } from '../temporal/definitions';
import { createWebhookDomain, type WebhookDomain } from './webhook-domain';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Inbound webhooks: project settings, signed image updates from CI, the controller's sync status (src/webhooks). */
    webhooks: WebhookDomain;
  }
}

/** What src/webhooks plugs into the platform (src/runtime/domain-module.ts). */
export const webhooksModule = {
  name: 'webhooks',
  tables: ['cdcontroller_tokens', 'deployment_statuses', 'image_update_marks', 'webhook_requests', 'webhook_settings'],
  settings: 'webhooks',
  workflows: ['imageUpdatesWorkflow'],
  reconcilers: (services) => [
    // Image updates and controller reports an API process recorded but could not hand over (Temporal unreachable).
    {
      name: 'inbound webhook',
      run: () => services.webhooks.reconcile(services.config.orgs.invitationReconcileIntervalMs),
      intervalMs: services.config.orgs.invitationReconcileIntervalMs,
    },
  ],
  services: {
    webhooks: provide(['projects', 'releases', 'promotions', 'rollouts', 'governance', 'commitPath'], (deps) =>
      createWebhookDomain({
        db: deps.db,
        audit: deps.audit,
        secrets: deps.secrets,
        projects: deps.projects.projects,
        releases: deps.releases,
        promotions: deps.promotions,
        rollouts: deps.rollouts,
        governance: deps.governance,
        workflows: deps.workflows,
        gitTaskQueue: taskQueue(deps.config.temporal.taskQueuePrefix, 'git'),
        commitPatienceMs: deps.config.gitops.commitPatienceMs,
        pgNotifications: deps.pgNotifications,
        commitPath: deps.commitPath,
        log: deps.log,
        config: deps.config.webhooks,
      }),
    ),
  },
  actions: {
    // Inbound webhook settings hold the project's shared secret: project administration. Sync status reads for viewers.
    'projects.*.webhook-settings.read': 'admin',
    'projects.*.webhook-settings.update': 'admin',
    'projects.*.webhook-settings.delete': 'admin',
    'projects.*.deployment-status.read': 'viewer',
    // The continuous-delivery controller's token authenticates the whole organization's sync reports.
    'org.cdcontroller-token.read': 'admin',
    'org.cdcontroller-token.rotate': 'admin',
  },
} satisfies DomainModule;
