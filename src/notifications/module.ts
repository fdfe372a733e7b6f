import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createNotificationDomain, type NotificationDomain } from './notification-domain';
import { channelRoutes } from '../../api/routes/notifications/channel-routes';
import { smtpRoutes } from '../../api/routes/notifications/smtp-routes';
import { inboxRoutes } from '../../api/routes/notifications/inbox-routes';
import { escalationRoutes } from '../../api/routes/notifications/escalation-routes';
import { createNotificationActivities } from '../../activities/notifications';
import { createEscalationActivities } from '../../activities/escalation';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Outbound notifications: channels, the safe sender and the delivery log (src/notifications). */
    notifications: NotificationDomain;
  }
}

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
  services: {
    notifications: provide(['plans', 'projects'], (deps) =>
      createNotificationDomain({
        ...owned(deps),
        secrets: deps.secrets,
        mailer: deps.mailer,
        plans: deps.plans,
        projects: deps.projects.projects,
        workflows: deps.workflows,
        temporal: deps.temporal,
        config: deps.config.notifications,
        limiter: deps.limiter,
      }),
    ),
  },
} satisfies DomainModule;
