import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createNotificationDomain, type NotificationDomain } from './notification-domain';

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
  actions: {
    // Outbound notifications. Project webhooks and the organization's channels are configuration (admins; members
    // read them, the delivery log included); a test send is a change too (it reaches the target).
    'projects.*.webhooks.read': 'member',
    'projects.*.webhooks.create': 'admin',
    'projects.*.webhooks.update': 'admin',
    'projects.*.webhooks.delete': 'admin',
    'projects.*.webhooks.test': 'admin',
    'org.notifications.channels.read': 'member',
    'org.notifications.channels.create': 'admin',
    'org.notifications.channels.update': 'admin',
    'org.notifications.channels.delete': 'admin',
    'org.notifications.channels.test': 'admin',
    // The organization's own SMTP relay: admins and owners only, reading included (it names the relay and its user).
    'org.notifications.smtp.read': 'admin',
    'org.notifications.smtp.update': 'admin',
    'org.notifications.smtp.delete': 'admin',
    'org.notifications.smtp.test': 'admin',
    // Each member's own inbox and preferences.
    'org.notifications.self': 'viewer',
    // Escalation policies (Pro and Enterprise): configuration; acknowledging or resolving an incident is for members.
    'org.notifications.escalations.read': 'member',
    'org.notifications.escalations.create': 'admin',
    'org.notifications.escalations.update': 'admin',
    'org.notifications.escalations.delete': 'admin',
    'org.notifications.incidents.read': 'member',
    'org.notifications.incidents.acknowledge': 'member',
    'org.notifications.incidents.resolve': 'member',
  },
} satisfies DomainModule;
