import type { DomainModule } from '../runtime/domain-module';
import { webhookRoutes } from '../../api/routes/webhooks/webhook-routes';

/** What src/webhooks plugs into the platform (src/runtime/domain-module.ts). */
export const webhooksModule = {
  name: 'webhooks',
  tables: ['cdcontroller_tokens', 'deployment_statuses', 'image_update_marks', 'webhook_requests', 'webhook_settings'],
  settings: 'webhooks',
  routes: (services) => webhookRoutes(services.webhooks),
} satisfies DomainModule;
