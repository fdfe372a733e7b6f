import { categoryOf, severityOf, type NotificationEvent } from './event-catalog';

/**
 * What every adapter renders: one notifiable event, already mapped from the outbox record, plus what the incident
 * and alert services need to open and close the same alert (`dedupKey`, `action`).
 */
export interface NotificationMessage {
  event: NotificationEvent;
  /** The outbox record's id; a test delivery carries a fresh one. */
  eventId: string;
  category: string;
  severity: 'critical' | 'warning' | 'info';
  title: string;
  /** One plain-text paragraph; adapters never interpret it as markup. */
  text: string;
  occurredAt: string;
  organizationId: string;
  projectId: string | null;
  /** Flat string facts shown as fields (project, release, actor, ...), at most a dozen. */
  facts: Record<string, string>;
  /** The event's own data, passed through to the HTTP webhook and the alerts' details. */
  data: Record<string, unknown>;
  /** Same key for the trigger and the resolve of one alert (escalation incident id, or the event id). */
  dedupKey: string;
  action: 'trigger' | 'resolve';
  /** A link for the human (the signed acknowledge link of an escalation). */
  link?: string;
}

const MAX_FACTS = 12;
const MAX_FACT_LENGTH = 200;

/** Top-level scalar fields of the event's data, as strings, for the chat and card adapters' field lists. */
function factsOf(data: Record<string, unknown>): Record<string, string> {
  const facts: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (Object.keys(facts).length >= MAX_FACTS) break;
    if (['string', 'number', 'boolean'].includes(typeof value)) facts[key] = String(value).slice(0, MAX_FACT_LENGTH);
  }
  return facts;
}

/**
 * What a title names, readable first: the thing's name (a release's title, a resource's name or the project), where
 * it runs (tenant/environment), then its id, e.g. `release.create: web 1.1.0 (acme/dev, release 5f0c…)` in full.
 */
export function subjectOf(facts: Record<string, string>): string {
  const name = facts.title ?? facts.name ?? facts.project;
  const where = facts.tenant && facts.environment ? `${facts.tenant}/${facts.environment}` : facts.environment;
  const id = facts.releaseId
    ? `release ${facts.releaseId}`
    : facts.promotionId
      ? `promotion ${facts.promotionId}`
      : undefined;
  const beside = [where, id].filter((part): part is string => Boolean(part)).join(', ');
  if (!name) return beside;
  return beside ? `${name} (${beside})` : name;
}

export function messageOf(input: {
  event: NotificationEvent;
  eventId: string;
  organizationId: string;
  projectId: string | null;
  occurredAt: string;
  data: Record<string, unknown>;
  dedupKey?: string;
  action?: 'trigger' | 'resolve';
  link?: string;
  title?: string;
}): NotificationMessage {
  const facts = factsOf(input.data);
  const subject = subjectOf(facts);
  return {
    event: input.event,
    eventId: input.eventId,
    category: categoryOf(input.event),
    severity: severityOf(input.event),
    title: input.title ?? `${input.event}${subject ? `: ${subject}` : ''}`,
    text: Object.entries(facts)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
    occurredAt: input.occurredAt,
    organizationId: input.organizationId,
    projectId: input.projectId,
    facts,
    data: input.data,
    dedupKey: input.dedupKey ?? input.eventId,
    action: input.action ?? 'trigger',
    ...(input.link ? { link: input.link } : {}),
  };
}
