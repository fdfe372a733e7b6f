import type { Queryable } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import type { AttemptStatus } from '../net/safe-http';
import { newestFirst } from './seq-page';

/** One attempt as the delivery log lists it (spec: timestamp, event, status, response code and body). */
export interface DeliveryAttempt {
  id: string;
  channelId: string;
  event: string;
  eventId: string | null;
  recipient: string;
  attempt: number;
  status: AttemptStatus;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  timestamp: string;
}

interface Row {
  id: string;
  seq: string;
  channel_id: string;
  event: string;
  event_id: string | null;
  recipient: string;
  attempt: number;
  status: AttemptStatus;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created_at: Date;
}

export type AttemptInsert = Omit<DeliveryAttempt, 'id' | 'timestamp'>;

export async function insertAttempt(db: Queryable, organizationId: string, a: AttemptInsert): Promise<void> {
  await db('notification_deliveries').insert({
    organization_id: organizationId,
    channel_id: a.channelId,
    event: a.event,
    event_id: a.eventId,
    recipient: a.recipient,
    attempt: a.attempt,
    status: a.status,
    response_status: a.responseStatus,
    response_body: a.responseBody,
    error: a.error,
    duration_ms: a.durationMs,
  });
}

export function listAttempts(
  db: Queryable,
  organizationId: string,
  channelId: string,
  page: PageRequest,
): Promise<Page<DeliveryAttempt>> {
  const query = db('notification_deliveries').where({ organization_id: organizationId, channel_id: channelId });
  return newestFirst<Row, DeliveryAttempt>(query, page, (r) => ({
    id: r.id,
    channelId: r.channel_id,
    event: r.event,
    eventId: r.event_id,
    recipient: r.recipient,
    attempt: r.attempt,
    status: r.status,
    responseStatus: r.response_status,
    responseBody: r.response_body,
    error: r.error,
    durationMs: r.duration_ms,
    timestamp: r.created_at.toISOString(),
  }));
}

/**
 * Claims the one delivery of (event, channel, recipient): true for the first caller, false when it was claimed
 * before (a replayed activity, a second dispatcher run). Claimed before sending: at most once, as the spec's "an
 * unavailable target loses that notification" allows.
 */
export async function claimSend(db: Queryable, organizationId: string, key: string): Promise<boolean> {
  const rows = (await db('notification_sends')
    .insert({ idempotency_key: key, organization_id: organizationId })
    .onConflict('idempotency_key')
    .ignore()
    .returning('idempotency_key')) as unknown[];
  return rows.length > 0;
}

export async function wasSent(db: Queryable, key: string): Promise<boolean> {
  return (await db('notification_sends').where({ idempotency_key: key }).first('idempotency_key')) !== undefined;
}

export function sendKey(eventId: string, channelOrUser: string, recipient: string): string {
  return `${eventId}:${channelOrUser}:${recipient}`;
}
