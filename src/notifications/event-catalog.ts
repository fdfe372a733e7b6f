import { DOMAIN_EVENT, type DomainEventType } from '../events/domain-event-repository';
import { ownValue } from '../parse/own-property';

/**
 * The spec's notifiable events ("Outbound notification events"), the project webhook trigger groups, and how the
 * domain-event outbox's types map onto them. A channel or preference selects events by name, by category, by
 * trigger group, or `*`.
 */
export const EVENT_CATEGORIES = {
  deployment: ['release.create', 'release.approve', 'release.deploy', 'release.fail'],
  promotion: ['promotion.request', 'promotion.approve', 'promotion.execute'],
  rollback: ['rollback.initiate', 'rollback.complete'],
  // Progressive delivery (issue 48): not in the spec's table; a rollout's halt, its end and each verified wave.
  rollout: ['rollout.halted', 'rollout.completed', 'rollout.wave.verified'],
  // Image automation (issue 49): a version a watch subscription's policy chose; targets it could not update.
  automation: ['image.discovered', 'image.update.blocked'],
  governance: ['policy.violation.detect', 'policy.violation.resolve', 'approval.request'],
  cluster: ['agent.connect', 'agent.disconnect', 'drift.detect'],
  security: ['break_glass.opened', 'apikey.create', 'member.role.change'],
  // Not in the spec's table but named by its trigger groups ("drift resolved, critical", "command executed", images).
  other: ['drift.resolve', 'drift.critical', 'cluster.command.execute', 'image.update.webhook', 'image.update.bulk'],
} as const;

/** The project webhook trigger list of the spec, group by group. */
export const TRIGGER_GROUPS = {
  releases: ['release.create', 'release.approve', 'release.deploy', 'rollback.complete', 'release.fail'],
  drift: ['drift.detect', 'drift.resolve', 'drift.critical'],
  clusters: ['agent.connect', 'agent.disconnect', 'cluster.command.execute'],
  governance: ['policy.violation.detect', 'policy.violation.resolve', 'break_glass.opened'],
  images: ['image.update.webhook', 'image.update.bulk'],
} as const;

export type NotificationEvent = (typeof EVENT_CATEGORIES)[keyof typeof EVENT_CATEGORIES][number];

export const NOTIFICATION_EVENTS: readonly NotificationEvent[] = Object.values(EVENT_CATEGORIES).flat();

/** The past-tense names the spec's escalation examples use (`release.failed`, `agent.disconnected`). */
const ALIASES: Readonly<Record<string, NotificationEvent>> = {
  'release.failed': 'release.fail',
  'agent.disconnected': 'agent.disconnect',
  'agent.connected': 'agent.connect',
  'release.created': 'release.create',
  'release.approved': 'release.approve',
  'release.deployed': 'release.deploy',
};

/**
 * Events that end the condition another event reported: an incident opened by the second is resolved by the first
 * (same policy and aggregation key), as a page is closed by its resolve.
 */
export const RESOLVING_EVENTS: Readonly<Partial<Record<NotificationEvent, NotificationEvent>>> = {
  'policy.violation.resolve': 'policy.violation.detect',
  'drift.resolve': 'drift.detect',
  'agent.connect': 'agent.disconnect',
};

/** Outbox types whose name differs from the notification event; spec names map to themselves. */
const OUTBOX_NAMES: Partial<Record<DomainEventType, NotificationEvent>> = {
  [DOMAIN_EVENT.imagesBulkUpdated]: 'image.update.bulk',
  [DOMAIN_EVENT.imagesWebhookUpdated]: 'image.update.webhook',
};

/** The notification event of an outbox record, or null for records nobody is notified of (registry pushes). */
export function notificationEventOf(type: string): NotificationEvent | null {
  const mapped = OUTBOX_NAMES[type as DomainEventType];
  if (mapped) return mapped;
  return (NOTIFICATION_EVENTS as readonly string[]).includes(type) ? (type as NotificationEvent) : null;
}

export type EventSelector = string;

/** Every selector a request may send: `*`, event names (and their aliases), categories, trigger groups. */
export function isEventSelector(value: string): boolean {
  return (
    value === '*' ||
    value in ALIASES ||
    value in EVENT_CATEGORIES ||
    value in TRIGGER_GROUPS ||
    (NOTIFICATION_EVENTS as readonly string[]).includes(value)
  );
}

/** Stores the canonical name of an alias, so `release.failed` and `release.fail` select the same thing. */
export function canonicalSelector(value: string): string {
  return ownValue(ALIASES, value) ?? value;
}

export function selects(selectors: readonly string[], event: NotificationEvent): boolean {
  return selectors.some((s) => {
    if (s === '*' || s === event) return true;
    const group =
      (EVENT_CATEGORIES as Record<string, readonly string[]>)[s] ??
      (TRIGGER_GROUPS as Record<string, readonly string[]>)[s];
    return group?.includes(event) ?? false;
  });
}

/** The category an event belongs to (for digests and titles). */
export function categoryOf(event: NotificationEvent): string {
  return Object.entries(EVENT_CATEGORIES).find(([, events]) => (events as readonly string[]).includes(event))![0];
}

/** Events the incident-paging and alert services treat as needing someone now. */
const CRITICAL: readonly NotificationEvent[] = [
  'release.fail',
  'agent.disconnect',
  'drift.critical',
  'break_glass.opened',
];

export function severityOf(event: NotificationEvent): 'critical' | 'warning' | 'info' {
  if (CRITICAL.includes(event)) return 'critical';
  const warning: readonly NotificationEvent[] = ['policy.violation.detect', 'drift.detect', 'image.update.blocked'];
  return warning.includes(event) ? 'warning' : 'info';
}
