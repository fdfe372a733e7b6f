import type { Queryable } from '../db/knex';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';
import { InvalidInput } from '../errors';
import type { OrgRole } from '../iam/principal';
import type { BreakGlassScope } from './break-glass-workflow-contract';

export interface BreakGlassSession {
  id: string;
  organizationId: string;
  userId: string;
  actor: string;
  justification: string;
  durationMinutes: number;
  scope: BreakGlassScope;
  workflowId: string;
  openedAt: string;
  endsAt: string;
  closedAt: string | null;
  closedBy: string | null;
  /** `closed` (by hand) or `expired` (its duration ended). */
  closeReason: string | null;
}

interface SessionRow {
  id: string;
  organization_id: string;
  user_id: string;
  actor: string;
  justification: string;
  duration_minutes: number;
  project_ids: string[];
  environments: string[];
  workflow_id: string;
  opened_at: Date;
  ends_at: Date;
  closed_at: Date | null;
  closed_by_actor: string | null;
  close_reason: string | null;
}

const toSession = (r: SessionRow): BreakGlassSession => ({
  id: r.id,
  organizationId: r.organization_id,
  userId: r.user_id,
  actor: r.actor,
  justification: r.justification,
  durationMinutes: r.duration_minutes,
  scope: { projectIds: r.project_ids, environments: r.environments },
  workflowId: r.workflow_id,
  openedAt: r.opened_at.toISOString(),
  endsAt: r.ends_at.toISOString(),
  closedAt: r.closed_at?.toISOString() ?? null,
  closedBy: r.closed_by_actor,
  closeReason: r.close_reason,
});

export type NewSession = Omit<BreakGlassSession, 'closedAt' | 'closedBy' | 'closeReason'>;

/** Writes the session row once; a retried opening finds it (false) and changes nothing. */
export async function insertSession(db: Queryable, s: NewSession): Promise<boolean> {
  const rows = (await db('break_glass_sessions')
    .insert({
      id: s.id,
      organization_id: s.organizationId,
      user_id: s.userId,
      actor: s.actor,
      justification: s.justification,
      duration_minutes: s.durationMinutes,
      project_ids: JSON.stringify(s.scope.projectIds),
      environments: JSON.stringify(s.scope.environments),
      workflow_id: s.workflowId,
      opened_at: s.openedAt,
      ends_at: s.endsAt,
    })
    .onConflict('id')
    .ignore()
    .returning('id')) as { id: string }[];
  return rows.length > 0;
}

export async function findSession(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<BreakGlassSession | null> {
  const row = (await db('break_glass_sessions').where({ organization_id: organizationId, id }).first()) as
    SessionRow | undefined;
  return row ? toSession(row) : null;
}

/** Closes an open session; null when it was closed already (nothing changes). */
export async function closeSession(
  db: Queryable,
  id: string,
  closedBy: string,
  reason: 'closed' | 'expired',
): Promise<BreakGlassSession | null> {
  const [row] = (await db('break_glass_sessions')
    .where({ id })
    .whereNull('closed_at')
    .update({ closed_at: db.fn.now(), closed_by_actor: closedBy, close_reason: reason })
    .returning('*')) as SessionRow[];
  return row ? toSession(row) : null;
}

export async function sessionClosedAt(db: Queryable, id: string): Promise<string | null> {
  const row = (await db('break_glass_sessions').where({ id }).first('closed_at')) as
    { closed_at: Date | null } | undefined;
  return row?.closed_at?.toISOString() ?? null;
}

/** Sessions of the organization, newest first; the cursor is the last item's `openedAt|id`. */
export async function listSessions(
  db: Queryable,
  organizationId: string,
  page: { limit: number; cursor?: string },
): Promise<{ items: BreakGlassSession[]; nextCursor: string | null }> {
  const query = db('break_glass_sessions').where({ organization_id: organizationId });
  if (page.cursor) {
    const [at, id] = Buffer.from(page.cursor, 'base64url').toString('utf8').split('|');
    if (!at || !id || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/.test(id))
      throw new InvalidInput('invalid cursor');
    query.andWhere((q) =>
      q.where('opened_at', '<', at).orWhere((q2) => q2.where('opened_at', at).andWhere('id', '<', id)),
    );
  }
  const rows = (await query
    .orderBy([
      { column: 'opened_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit + 1)) as SessionRow[];
  const items = rows.slice(0, page.limit).map(toSession);
  const last = items.at(-1);
  return {
    items,
    nextCursor:
      rows.length > page.limit && last ? Buffer.from(`${last.openedAt}|${last.id}`).toString('base64url') : null,
  };
}

/** The user's sessions open at `at` that cover the project (any of its environments), newest first, as a RowsQuery. */
export function openSessionRows(
  db: Queryable,
  target: { organizationId: string; userId: string; projectId: string },
  at: Date,
): RowsQuery<BreakGlassSession> {
  const query = db('break_glass_sessions')
    .where({ organization_id: target.organizationId, user_id: target.userId })
    .whereNull('closed_at')
    .andWhere('opened_at', '<=', at)
    .andWhere('ends_at', '>', at)
    .andWhereRaw("(project_ids = '[]'::jsonb OR project_ids \\? ?)", [target.projectId])
    .orderBy('opened_at', 'desc')
    .select('*');
  return rowsQuery<SessionRow, BreakGlassSession>(query, ['opened_at', 'ends_at', 'closed_at'], toSession);
}

/** The newest of the open sessions (`openSessionRows`) that covers the environment. */
export function sessionCovering(sessions: BreakGlassSession[], environment: string): BreakGlassSession | null {
  const covers = ({ scope }: BreakGlassSession) =>
    scope.environments.length === 0 || scope.environments.includes(environment);
  return sessions.find(covers) ?? null;
}

/**
 * The user's open session covering a project and environment at `at` (the newest if several): not closed, opened
 * at or before `at`, ending after it, and its scope naming the project and environment (empty = every one).
 */
export async function coveringSession(
  db: Queryable,
  target: { organizationId: string; userId: string; projectId: string; environment: string },
  at: Date,
): Promise<BreakGlassSession | null> {
  return sessionCovering(await readRows(openSessionRows(db, target, at)), target.environment);
}

export const DEFAULT_ALLOWED_ROLES: OrgRole[] = ['owner', 'admin'];

export async function allowedRoles(db: Queryable, organizationId: string): Promise<OrgRole[]> {
  const row = (await db('break_glass_settings').where({ organization_id: organizationId }).first('allowed_roles')) as
    { allowed_roles: OrgRole[] } | undefined;
  return row?.allowed_roles ?? DEFAULT_ALLOWED_ROLES;
}

export async function storeAllowedRoles(db: Queryable, organizationId: string, roles: OrgRole[]): Promise<void> {
  const value = { allowed_roles: JSON.stringify(roles), updated_at: db.fn.now() };
  await db('break_glass_settings')
    .insert({ organization_id: organizationId, ...value })
    .onConflict('organization_id')
    .merge(value);
}

/** Open sessions of the organization whose scope names the project and the environment explicitly. */
export async function openSessionIdsNaming(
  db: Queryable,
  target: { organizationId: string; projectId: string; environment: string },
): Promise<string[]> {
  const rows = (await db('break_glass_sessions')
    .where({ organization_id: target.organizationId })
    .whereNull('closed_at')
    .andWhere('ends_at', '>', db.fn.now())
    .andWhereRaw("(project_ids = '[]'::jsonb OR project_ids \\? ?)", [target.projectId])
    .andWhereRaw('environments \\? ?', [target.environment])
    .orderBy('opened_at')
    .select('id')) as { id: string }[];
  return rows.map((r) => r.id);
}
