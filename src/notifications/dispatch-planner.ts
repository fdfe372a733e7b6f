import type { Db, Queryable } from '../db/knex';
import { listDomainEvents } from '../events/domain-event-repository';
import { activeChannelsFor, findChannel, type ChannelRecord } from './channel-repository';
import { recipientsOf, type ChannelDeliver } from './channel-sender';
import { claimSend, sendKey } from './delivery-repository';
import { notificationEventOf, selects, type NotificationEvent } from './event-catalog';
import { resolveByEvent, routeToEscalations, type IncidentDeps } from './incident-opener';
import { insertInApp, membersWithPreferences, type Preferences } from './inbox-repository';
import { messageOf } from './message';
import {
  digestItemSignal,
  digestWorkflowId,
  type DeliveryOutcome,
  type DigestChannel,
  type DigestItem,
  type DispatchPlan,
  type PlannedDelivery,
  notificationDigestWorkflowType,
} from './notification-workflow-contract';
import { emailOf } from './email-message';
import type { OrgMailer } from './org-mailer';

export async function readCursor(db: Queryable, organizationId: string): Promise<number> {
  const row = (await db('notification_cursors').where({ organization_id: organizationId }).first('last_seq')) as
    { last_seq: string } | undefined;
  return row ? Number(row.last_seq) : 0;
}

async function storeCursor(db: Queryable, organizationId: string, seq: number): Promise<void> {
  await db('notification_cursors')
    .insert({ organization_id: organizationId, last_seq: seq })
    .onConflict('organization_id')
    .merge({ last_seq: seq, updated_at: db.fn.now() });
}

/** What bounds one delivery's time: NOTIFY_TOTAL_TIMEOUT per attempt, NOTIFY_THROTTLE_MAX_WAIT before each. */
export interface DeliveryTiming {
  totalTimeoutMs: number;
  throttleWaitMs: number;
}

/**
 * Attempt budget of one delivery: every attempt's total timeout and throttle wait plus the backoffs between them,
 * plus a margin.
 */
function budgetMs(channel: ChannelRecord, timing: DeliveryTiming): number {
  let backoff = 0;
  for (let n = 2; n <= channel.retryAttempts; n++) backoff += channel.retryBackoffMs * 2 ** (n - 2);
  return channel.retryAttempts * (timing.totalTimeoutMs + timing.throttleWaitMs) + backoff + 10_000;
}

/** The personal channels a member's preferences route this event to (in-app unless they say otherwise). */
function personalChannels(p: Preferences, event: NotificationEvent, projectId: string | null): string[] {
  if (!selects(p.events, event)) return [];
  if (p.projectIds !== null && (projectId === null || !p.projectIds.includes(projectId))) return [];
  const routed = Object.entries(p.channels).find(([selector]) => selects([selector], event));
  return routed ? routed[1] : ['in_app'];
}

/**
 * One dispatcher turn: the next outbox records after `afterSeq`, mapped to notification events, matched against the
 * organization's active channels (their project or organization-wide, their chosen events), in-app notifications
 * written for the members whose preferences select the event, escalation policies consulted (incident-opener.ts),
 * and the cursor stored.
 */
export async function planDispatch(
  deps: IncidentDeps,
  input: { organizationId: string; afterSeq: number; limit: number },
  timing: DeliveryTiming,
): Promise<DispatchPlan> {
  const { db } = deps;
  const events = await listDomainEvents(db, input.organizationId, input.afterSeq, input.limit);
  const deliveries: PlannedDelivery[] = [];
  const members = events.length > 0 ? await membersWithPreferences(db, input.organizationId) : [];
  const inApp: Parameters<typeof insertInApp>[1] = [];
  const digests: { userId: string; item: DigestItem }[] = [];
  for (const record of events) {
    const event = notificationEventOf(record.type);
    if (event === null) continue;
    const message = messageOf({
      event,
      eventId: record.id,
      organizationId: record.organizationId,
      projectId: record.projectId,
      occurredAt: record.createdAt,
      data: record.payload,
    });
    await routeToEscalations(deps, message);
    await resolveByEvent(deps, message);
    for (const { userId, email, preferences } of members) {
      const routes = personalChannels(preferences, event, record.projectId);
      if (preferences.digestIntervalMs !== null) {
        // Digest mode: every personal channel chosen for the event gets the one summary of the window.
        const channels = routes.filter((c): c is DigestChannel => c === 'email' || c === 'in_app');
        if (channels.length === 0) continue;
        digests.push({
          userId,
          item: {
            eventId: record.id,
            event,
            title: message.title,
            occurredAt: record.createdAt,
            projectId: record.projectId,
            intervalMs: preferences.digestIntervalMs,
            channels,
          },
        });
        continue;
      }
      if (routes.includes('email')) {
        deliveries.push({
          channelId: `user:${userId}`,
          personal: { userId, email },
          recipient: email,
          eventId: record.id,
          message,
          timeoutMs: timing.totalTimeoutMs + 10_000,
        });
      }
      if (!routes.includes('in_app')) continue;
      inApp.push({
        organizationId: input.organizationId,
        userId,
        eventId: record.id,
        event,
        projectId: record.projectId,
        title: message.title,
        payload: record.payload,
      });
    }
    for (const channel of await activeChannelsFor(db, input.organizationId, record.projectId)) {
      if (!selects(channel.events, event)) continue;
      for (const recipient of recipientsOf(channel)) {
        deliveries.push({
          channelId: channel.id,
          recipient,
          eventId: record.id,
          message,
          timeoutMs: budgetMs(channel, timing),
        });
      }
    }
  }
  await insertInApp(db, inApp);
  for (const { userId, item } of digests) {
    await deps.workflows.signalWithStart(notificationDigestWorkflowType, {
      workflowId: digestWorkflowId(input.organizationId, userId),
      args: [{ organizationId: input.organizationId, userId, sendsPerRun: 100 }],
      signal: digestItemSignal,
      signalArgs: [item],
      labels: { organizationId: input.organizationId },
      summary: `notification digest of user ${userId}`,
    });
  }
  const lastSeq = events.length > 0 ? events[events.length - 1]!.seq : input.afterSeq;
  if (lastSeq !== input.afterSeq) await storeCursor(db, input.organizationId, lastSeq);
  return { lastSeq, events: events.length, deliveries };
}

/**
 * One planned delivery, at most once: the (event, channel, recipient) claim row is taken first, so a replayed
 * activity or a second dispatcher finds it and sends nothing. A channel deleted or switched off since the plan is
 * skipped.
 */
export async function deliverPlanned(
  deps: { db: Db; deliver: ChannelDeliver; mail: Pick<OrgMailer, 'send'> },
  d: PlannedDelivery,
): Promise<DeliveryOutcome> {
  const { db, deliver } = deps;
  if (d.personal) {
    const key = sendKey(d.eventId, `user:${d.personal.userId}`, 'email');
    if (!(await claimSend(db, d.message.organizationId, key))) return 'duplicate';
    await deps.mail.send(d.message.organizationId, emailOf(d.message, d.personal.email));
    return 'sent';
  }
  const channel = await findChannel(db, d.message.organizationId, d.channelId);
  if (!channel || !channel.active) return 'skipped';
  if (!(await claimSend(db, channel.organizationId, sendKey(d.eventId, d.channelId, d.recipient)))) return 'duplicate';
  const result = await deliver(channel, d.message, { eventId: d.eventId, recipient: d.recipient });
  return result.status === 'success' ? 'sent' : 'failed';
}
