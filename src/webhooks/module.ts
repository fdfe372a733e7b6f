import type { DomainModule } from '../runtime/domain-module';
import { webhookRoutes } from '../../api/routes/webhooks/webhook-routes';
import { createImageUpdateActivities } from '../../activities/image-updates';

/** What src/webhooks plugs into the platform (src/runtime/domain-module.ts). */
export const webhooksModule = {
  name: 'webhooks',
  tables: ['cdcontroller_tokens', 'deployment_statuses', 'image_update_marks', 'webhook_requests', 'webhook_settings'],
  settings: 'webhooks',
  workflows: ['imageUpdatesWorkflow'],
  routes: (services) => webhookRoutes(services.webhooks),
  activities: (deps) => createImageUpdateActivities(deps),
  reconcilers: (services) => [
    // Image updates and controller reports an API process recorded but could not hand over (Temporal unreachable).
    {
      name: 'inbound webhook',
      run: () => services.webhooks.reconcile(services.config.orgs.invitationReconcileIntervalMs),
      intervalMs: services.config.orgs.invitationReconcileIntervalMs,
    },
  ],
} satisfies DomainModule;
