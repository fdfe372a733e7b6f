import type { DomainModule } from '../runtime/domain-module';
import { channelRoutes } from '../../api/routes/notifications/channel-routes';
import { smtpRoutes } from '../../api/routes/notifications/smtp-routes';
import { inboxRoutes } from '../../api/routes/notifications/inbox-routes';
import { escalationRoutes } from '../../api/routes/notifications/escalation-routes';
import { createNotificationActivities } from '../../activities/notifications';
import { createEscalationActivities } from '../../activities/escalation';

/** What src/notifications plugs into the platform (src/runtime/domain-module.ts). */
export const notificationsModule = {
  name: 'notifications',
  tables: [
    'escalation_incidents',
    'escalation_policies',
    'notification_channels',
    'notification_cursors',
    'notification_deliveries',
    'notification_preferences',
    'notification_sends',
    'notifications',
    'organization_smtp_settings',
  ],
  workflows: ['notificationDispatchWorkflow', 'escalationIncidentWorkflow', 'notificationDigestWorkflow'],
  settings: 'notifications',
  routes: (services) => [
    ...channelRoutes(services.notifications.channels, services.config.orgs.pageMax),
    ...smtpRoutes(services.notifications.smtp),
    ...inboxRoutes(services.notifications.inbox, services.config.orgs.pageMax),
    ...escalationRoutes(services.notifications.escalations, services.config.orgs.pageMax),
  ],
  activities: (deps) => ({ ...createNotificationActivities(deps), ...createEscalationActivities(deps) }),
  reconcilers: (services) => [
    // Idempotent starts of the organizations' outbox dispatchers (it counts organizations checked: nothing to log).
    {
      name: 'notification dispatcher',
      run: () => services.notifications.reconcileDispatchers().then(() => 0),
      intervalMs: services.config.notifications.reconcileIntervalMs,
    },
  ],
} satisfies DomainModule;
