import type { Queryable } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import { membershipRoles } from '../orgs/membership-repository';
import { userProfiles } from '../users/user-repository';
import { newestFirst } from './seq-page';

export interface InAppNotification {
  id: string;
  event: string;
  eventId: string;
  projectId: string | null;
  title: string;
  payload: Record<string, unknown>;
  read: boolean;
  createdAt: string;
}

interface Row {
  id: string;
  seq: string;
  event: string;
  event_id: string;
  project_id: string | null;
  title: string;
  payload: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
}

export interface Preferences {
  events: string[];
  channels: Record<string, string[]>;
  projectIds: string[] | null;
  digestIntervalMs: number | null;
  updatedAt: string | null;
}

/** Without a saved row a member gets every event in-app: the spec's "in-app, Free, automatic". */
export const DEFAULT_PREFERENCES: Preferences = {
  events: ['*'],
  channels: {},
  projectIds: null,
  digestIntervalMs: null,
  updatedAt: null,
};

const mine = (db: Queryable, organizationId: string, userId: string) =>
  db('notifications').where({ organization_id: organizationId, user_id: userId });

/** One row per (event, user): a replayed dispatcher turn inserts nothing twice. */
export async function insertInApp(
  db: Queryable,
  rows: {
    organizationId: string;
    userId: string;
    eventId: string;
    event: string;
    projectId: string | null;
    title: string;
    payload: Record<string, unknown>;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db('notifications')
    .insert(
      rows.map((r) => ({
        organization_id: r.organizationId,
        user_id: r.userId,
        event_id: r.eventId,
        event: r.event,
        project_id: r.projectId,
        title: r.title,
        payload: JSON.stringify(r.payload),
      })),
    )
    .onConflict(['event_id', 'user_id'])
    .ignore();
}

export function listInbox(
  db: Queryable,
  organizationId: string,
  userId: string,
  page: PageRequest,
  unreadOnly: boolean,
): Promise<Page<InAppNotification>> {
  const query = mine(db, organizationId, userId).select(
    'id',
    'seq',
    'event',
    'event_id',
    'project_id',
    'title',
    'payload',
    'read_at',
    'created_at',
  );
  if (unreadOnly) void query.whereNull('read_at');
  return newestFirst<Row, InAppNotification>(query, page, (r) => ({
    id: r.id,
    event: r.event,
    eventId: r.event_id,
    projectId: r.project_id,
    title: r.title,
    payload: r.payload,
    read: r.read_at !== null,
    createdAt: r.created_at.toISOString(),
  }));
}

export async function unreadCount(db: Queryable, organizationId: string, userId: string): Promise<number> {
  const row = (await mine(db, organizationId, userId).whereNull('read_at').count('* as n').first()) as { n: string };
  return Number(row.n);
}

/** Marks one (or, with `id` null, every) unread notification read; the count of rows changed. */
export function markRead(db: Queryable, organizationId: string, userId: string, id: string | null): Promise<number> {
  const query = mine(db, organizationId, userId).whereNull('read_at');
  if (id !== null) void query.where({ id });
  return query.update({ read_at: db.fn.now() });
}

export async function notificationExists(
  db: Queryable,
  organizationId: string,
  userId: string,
  id: string,
): Promise<boolean> {
  return (await mine(db, organizationId, userId).where({ id }).first('id')) !== undefined;
}

interface PrefRow {
  events: string[];
  channels: Record<string, string[]>;
  project_ids: string[] | null;
  digest_interval_ms: number | null;
  updated_at: Date;
}

const toPreferences = (r: PrefRow): Preferences => ({
  events: r.events,
  channels: r.channels,
  projectIds: r.project_ids,
  digestIntervalMs: r.digest_interval_ms,
  updatedAt: r.updated_at.toISOString(),
});

export async function findPreferences(db: Queryable, organizationId: string, userId: string): Promise<Preferences> {
  const row = (await db('notification_preferences')
    .where({ organization_id: organizationId, user_id: userId })
    .first()) as PrefRow | undefined;
  return row ? toPreferences(row) : DEFAULT_PREFERENCES;
}

export async function upsertPreferences(
  db: Queryable,
  organizationId: string,
  userId: string,
  p: Omit<Preferences, 'updatedAt'>,
): Promise<Preferences> {
  const values = {
    events: p.events,
    channels: JSON.stringify(p.channels),
    project_ids: p.projectIds,
    digest_interval_ms: p.digestIntervalMs,
  };
  const [row] = (await db('notification_preferences')
    .insert({ organization_id: organizationId, user_id: userId, ...values })
    .onConflict(['organization_id', 'user_id'])
    .merge({ ...values, updated_at: db.fn.now() })
    .returning(['events', 'channels', 'project_ids', 'digest_interval_ms', 'updated_at'])) as PrefRow[];
  return toPreferences(row!);
}

/** Every member of the organization with their preferences (the default for those who saved none). */
export async function membersWithPreferences(
  db: Queryable,
  organizationId: string,
): Promise<{ userId: string; email: string; preferences: Preferences }[]> {
  const rows = (await db(membershipRoles(db).as('m'))
    .join(userProfiles(db).as('u'), 'u.id', 'm.user_id')
    .leftJoin('notification_preferences as p', (j) => {
      j.on('p.user_id', '=', 'm.user_id').andOn('p.organization_id', '=', 'm.organization_id');
    })
    .where('m.organization_id', organizationId)
    .select(
      'm.user_id',
      'u.email',
      'p.events',
      'p.channels',
      'p.project_ids',
      'p.digest_interval_ms',
      'p.updated_at',
    )) as (Partial<PrefRow> & { user_id: string; email: string })[];
  return rows.map((r) => ({
    userId: r.user_id,
    email: r.email,
    preferences: r.events ? toPreferences(r as PrefRow) : DEFAULT_PREFERENCES,
  }));
}
