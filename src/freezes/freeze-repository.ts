import type { Queryable } from '../db/knex';
import { deleteOwned, timestampsOf } from '../db/owned-rows';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';
import type { FreezeDefinition } from './freeze-evaluation';

/** A freeze window as stored: one-off (`endsAt`) or recurring (`rrule`, `timeZone`, `durationMinutes`). */
export interface FreezeRecord {
  id: string;
  organizationId: string;
  /** Null for an organization-wide freeze. */
  projectId: string | null;
  name: string;
  reason: string;
  startsAt: string;
  endsAt: string | null;
  rrule: string | null;
  timeZone: string | null;
  durationMinutes: number | null;
  environments: string[];
  tenants: string[];
  /** Organization-wide freezes only: the projects it covers; empty = every project. */
  projectIds: string[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export type FreezeFields = Pick<
  FreezeRecord,
  | 'name'
  | 'reason'
  | 'startsAt'
  | 'endsAt'
  | 'rrule'
  | 'timeZone'
  | 'durationMinutes'
  | 'environments'
  | 'tenants'
  | 'projectIds'
>;

interface FreezeRow {
  id: string;
  organization_id: string;
  project_id: string | null;
  name: string;
  reason: string;
  starts_at: Date;
  ends_at: Date | null;
  rrule: string | null;
  time_zone: string | null;
  duration_minutes: number | null;
  environments: string[];
  tenants: string[];
  project_ids: string[];
  created_by_actor: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
  'id',
  'organization_id',
  'project_id',
  'name',
  'reason',
  'starts_at',
  'ends_at',
  'rrule',
  'time_zone',
  'duration_minutes',
  'environments',
  'tenants',
  'project_ids',
  'created_by_actor',
  'created_at',
  'updated_at',
];

/** Most freeze windows one organization keeps (organization-wide and per project together). */
export const MAX_FREEZES_PER_ORGANIZATION = 500;

function rowToFreeze(r: FreezeRow): FreezeRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    projectId: r.project_id,
    name: r.name,
    reason: r.reason,
    startsAt: r.starts_at.toISOString(),
    endsAt: r.ends_at?.toISOString() ?? null,
    rrule: r.rrule,
    timeZone: r.time_zone,
    durationMinutes: r.duration_minutes,
    environments: r.environments,
    tenants: r.tenants,
    projectIds: r.project_ids,
    createdBy: r.created_by_actor,
    ...timestampsOf(r),
  };
}

const columnsOf = (f: FreezeFields) => ({
  name: f.name,
  reason: f.reason,
  starts_at: f.startsAt,
  ends_at: f.endsAt,
  rrule: f.rrule,
  time_zone: f.timeZone,
  duration_minutes: f.durationMinutes,
  environments: JSON.stringify(f.environments),
  tenants: JSON.stringify(f.tenants),
  project_ids: JSON.stringify(f.projectIds),
});

export async function insertFreeze(
  db: Queryable,
  organizationId: string,
  projectId: string | null,
  fields: FreezeFields,
  actor: string,
): Promise<FreezeRecord> {
  const [row] = (await db('freeze_windows')
    .insert({ organization_id: organizationId, project_id: projectId, created_by_actor: actor, ...columnsOf(fields) })
    .returning(COLUMNS)) as FreezeRow[];
  return rowToFreeze(row!);
}

/** The freeze of the organization, of one project (`projectId`) or organization-wide (`null`). */
export async function findFreeze(
  db: Queryable,
  organizationId: string,
  projectId: string | null,
  id: string,
): Promise<FreezeRecord | null> {
  const row = (await db('freeze_windows')
    .where({ organization_id: organizationId, id, project_id: projectId })
    .first(COLUMNS)) as FreezeRow | undefined;
  return row ? rowToFreeze(row) : null;
}

export async function updateFreeze(db: Queryable, organizationId: string, id: string, fields: FreezeFields) {
  const changed = await db('freeze_windows')
    .where({ organization_id: organizationId, id })
    .update({ ...columnsOf(fields), updated_at: db.fn.now() });
  return changed > 0;
}

export function deleteFreeze(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return deleteOwned(db, 'freeze_windows', organizationId, id);
}

export async function countFreezes(db: Queryable, organizationId: string): Promise<number> {
  const [row] = (await db('freeze_windows').where({ organization_id: organizationId }).count('* as n')) as {
    n: string;
  }[];
  return Number(row?.n ?? 0);
}

/**
 * The freezes that can reach a project: its own and the organization-wide ones (without a project, or with one,
 * the list of projects `coversTarget` checks). Without a project: the organization-wide ones only. As a RowsQuery:
 * the governance gate reads it with the switch and the sessions in one statement; `freezesFor` alone.
 */
export function freezeRowsFor(
  db: Queryable,
  organizationId: string,
  projectId: string | null,
): RowsQuery<FreezeRecord> {
  const query = db('freeze_windows')
    .where({ organization_id: organizationId })
    .andWhere((q) => {
      q.whereNull('project_id');
      if (projectId) q.orWhere('project_id', projectId);
    })
    .orderBy(['starts_at', 'id'])
    .limit(MAX_FREEZES_PER_ORGANIZATION)
    .select(COLUMNS);
  return rowsQuery<FreezeRow, FreezeRecord>(query, ['starts_at', 'ends_at', 'created_at', 'updated_at'], rowToFreeze);
}

export function freezesFor(db: Queryable, organizationId: string, projectId: string | null) {
  return readRows(freezeRowsFor(db, organizationId, projectId));
}

/** The evaluation's view of a stored freeze. */
export function definitionOf(f: FreezeRecord): FreezeDefinition {
  const base = {
    id: f.id,
    name: f.name,
    reason: f.reason,
    scope: f.projectId ? ('project' as const) : ('organization' as const),
    projectIds: f.projectId ? [f.projectId] : f.projectIds,
    environments: f.environments,
    tenants: f.tenants,
  };
  if (f.rrule === null) {
    return { ...base, window: { kind: 'one-off', startsAt: new Date(f.startsAt), endsAt: new Date(f.endsAt!) } };
  }
  return {
    ...base,
    window: {
      kind: 'recurring',
      rrule: f.rrule,
      timeZone: f.timeZone!,
      durationMinutes: f.durationMinutes!,
      anchor: new Date(f.startsAt),
    },
  };
}

export interface StopTheLine {
  enabled: boolean;
  reason: string;
  changedBy: string | null;
  changedAt: string | null;
}

/** The organization's stop-the-line switch as a RowsQuery: no row when it was never turned on (`stopTheLineOf`). */
export function stopTheLineRows(db: Queryable, organizationId: string): RowsQuery<StopTheLine> {
  const query = db('freeze_switches').where({ organization_id: organizationId }).limit(1).select('*');
  return rowsQuery(
    query,
    ['changed_at'],
    (row: { enabled: boolean; reason: string; changed_by_actor: string; changed_at: Date }) => ({
      enabled: row.enabled,
      reason: row.reason,
      changedBy: row.changed_by_actor,
      changedAt: row.changed_at.toISOString(),
    }),
  );
}

/** The switch from its rows: off when the organization never set it. */
export function stopTheLineOf(rows: StopTheLine[]): StopTheLine {
  return rows[0] ?? { enabled: false, reason: '', changedBy: null, changedAt: null };
}

export async function findStopTheLine(db: Queryable, organizationId: string): Promise<StopTheLine> {
  return stopTheLineOf(await readRows(stopTheLineRows(db, organizationId)));
}

export async function storeStopTheLine(
  db: Queryable,
  organizationId: string,
  value: { enabled: boolean; reason: string },
  actor: string,
): Promise<void> {
  const row = { ...value, changed_by_actor: actor, changed_at: db.fn.now() };
  await db('freeze_switches')
    .insert({ organization_id: organizationId, ...row })
    .onConflict('organization_id')
    .merge(row);
}
