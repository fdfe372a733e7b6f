import type { Queryable } from '../db/knex';
import { insertOne, timestampsOf } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';

export const CHANNEL_TYPES = ['webhook', 'email', 'chat', 'chat2', 'cards', 'paging', 'alerts'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** A channel as stored, secrets still sealed (only the sender opens them). */
export interface ChannelRecord {
  id: string;
  organizationId: string;
  projectId: string | null;
  type: ChannelType;
  name: string;
  settings: Record<string, unknown>;
  secretSealed: string | null;
  events: string[];
  active: boolean;
  retryAttempts: number;
  retryBackoffMs: number;
  /** After a 429/502/503/504 the target is left alone until then (channel-throttle.ts); null when not throttled. */
  throttledUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  organization_id: string;
  project_id: string | null;
  type: ChannelType;
  name: string;
  settings: Record<string, unknown>;
  secret_sealed: string | null;
  events: string[];
  active: boolean;
  retry_attempts: number;
  retry_backoff_ms: number;
  throttled_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
  'id',
  'organization_id',
  'project_id',
  'type',
  'name',
  'settings',
  'secret_sealed',
  'events',
  'active',
  'retry_attempts',
  'retry_backoff_ms',
  'throttled_until',
  'created_at',
  'updated_at',
];

function toRecord(r: Row): ChannelRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    projectId: r.project_id,
    type: r.type,
    name: r.name,
    settings: r.settings,
    secretSealed: r.secret_sealed,
    events: r.events,
    active: r.active,
    retryAttempts: r.retry_attempts,
    retryBackoffMs: r.retry_backoff_ms,
    throttledUntil: r.throttled_until?.toISOString() ?? null,
    ...timestampsOf(r),
  };
}

export type ChannelInsert = Omit<ChannelRecord, 'organizationId' | 'throttledUntil' | 'createdAt' | 'updatedAt'> & {
  createdBy: string | null;
};

export async function insertChannel(db: Queryable, organizationId: string, c: ChannelInsert): Promise<ChannelRecord> {
  const row = await insertOne<Row>(
    db('notification_channels')
      .insert({
        id: c.id,
        organization_id: organizationId,
        project_id: c.projectId,
        type: c.type,
        name: c.name,
        settings: JSON.stringify(c.settings),
        secret_sealed: c.secretSealed,
        events: c.events,
        active: c.active,
        retry_attempts: c.retryAttempts,
        retry_backoff_ms: c.retryBackoffMs,
        created_by: c.createdBy,
      })
      .returning(COLUMNS),
    'a channel with this id already exists',
  );
  return toRecord(row);
}

export type ChannelChanges = Partial<
  Pick<ChannelInsert, 'name' | 'settings' | 'secretSealed' | 'events' | 'active' | 'retryAttempts' | 'retryBackoffMs'>
>;

export async function updateChannel(
  db: Queryable,
  organizationId: string,
  id: string,
  c: ChannelChanges,
): Promise<ChannelRecord | null> {
  const changes: Record<string, unknown> = { updated_at: db.fn.now() };
  if (c.name !== undefined) changes.name = c.name;
  if (c.settings !== undefined) changes.settings = JSON.stringify(c.settings);
  if (c.secretSealed !== undefined) changes.secret_sealed = c.secretSealed;
  if (c.events !== undefined) changes.events = c.events;
  if (c.active !== undefined) changes.active = c.active;
  if (c.retryAttempts !== undefined) changes.retry_attempts = c.retryAttempts;
  if (c.retryBackoffMs !== undefined) changes.retry_backoff_ms = c.retryBackoffMs;
  const [row] = (await db('notification_channels')
    .where({ organization_id: organizationId, id })
    .update(changes)
    .returning(COLUMNS)) as Row[];
  return row ? toRecord(row) : null;
}

export async function deleteChannel(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await db('notification_channels').where({ organization_id: organizationId, id }).delete()) > 0;
}

export async function findChannel(db: Queryable, organizationId: string, id: string): Promise<ChannelRecord | null> {
  const row = (await db('notification_channels').where({ organization_id: organizationId, id }).first(COLUMNS)) as
    Row | undefined;
  return row ? toRecord(row) : null;
}

/** Project webhooks (`projectId` and type webhook) or the organization's other channels (every other type). */
export function listChannels(
  db: Queryable,
  organizationId: string,
  scope: { webhooksOf: string } | { nonWebhook: true },
  page: PageRequest,
): Promise<Page<ChannelRecord>> {
  const query = db('notification_channels').where({ organization_id: organizationId }).select(COLUMNS);
  if ('webhooksOf' in scope) void query.where({ type: 'webhook', project_id: scope.webhooksOf });
  else void query.whereNot({ type: 'webhook' });
  return keysetPage<Row, ChannelRecord>(query, ['name', 'id'], page, (r) => [r.name, r.id], toRecord);
}

/** Active channels of the organization that may receive an event of `projectId` (theirs, or organization-wide). */
export async function activeChannelsFor(
  db: Queryable,
  organizationId: string,
  projectId: string | null,
): Promise<ChannelRecord[]> {
  const rows = (await db('notification_channels')
    .where({ organization_id: organizationId, active: true })
    .andWhere((q) => {
      void q.whereNull('project_id');
      if (projectId) void q.orWhere('project_id', projectId);
    })
    .orderBy('created_at')
    .select(COLUMNS)) as Row[];
  return rows.map(toRecord);
}

/** Leaves the channel's target alone until `until` (a later throttle already stored wins). */
export async function throttleChannel(db: Queryable, id: string, until: Date): Promise<void> {
  await db('notification_channels')
    .where({ id })
    .update({ throttled_until: db.raw('GREATEST(COALESCE(throttled_until, ?), ?)', [until, until]) });
}
