import type { Queryable } from '../db/knex';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { chronological, TIME_KEYS, type TimeKey } from './time-key';

export const COMMAND_NAMES = ['sync', 'refresh', 'restart'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];
export type CommandStatus = 'queued' | 'sent' | 'succeeded' | 'failed' | 'expired';

export interface CommandParams {
  /** The application (delivery unit) to sync or refresh; all of the cluster's when absent. */
  application?: string;
  /** What `restart` restarts. */
  workload?: { kind: string; namespace: string; name: string };
}

export interface ClusterCommand {
  id: string;
  clusterId: string;
  command: CommandName;
  params: CommandParams;
  status: CommandStatus;
  result: { message: string; details?: Record<string, unknown> } | null;
  requestedBy: string;
  createdAt: string;
  sentAt: string | null;
  finishedAt: string | null;
  expiresAt: string;
}

export interface CommandRow {
  id: string;
  organization_id: string;
  cluster_id: string;
  name: CommandName;
  params: CommandParams;
  status: CommandStatus;
  result: ClusterCommand['result'];
  requested_by: string;
  created_at: Date;
  sent_at: Date | null;
  finished_at: Date | null;
  expires_at: Date;
}

const COLUMNS = [
  'id',
  'organization_id',
  'cluster_id',
  'name',
  'params',
  'status',
  'result',
  'requested_by',
  'created_at',
  'sent_at',
  'finished_at',
  'expires_at',
];

/**
 * What reads select: a queued or sent command past its deadline reads as expired at once, although the row (and its
 * audit entry) changes only at the agent's next call.
 */
function readColumns(db: Queryable) {
  return [
    ...COLUMNS.filter((c) => c !== 'status'),
    db.raw("CASE WHEN status IN ('queued','sent') AND expires_at <= now() THEN 'expired' ELSE status END AS status"),
  ];
}

export function rowToCommand(row: CommandRow): ClusterCommand {
  return {
    id: row.id,
    clusterId: row.cluster_id,
    command: row.name,
    params: row.params,
    status: row.status,
    result: row.result,
    requestedBy: row.requested_by,
    createdAt: row.created_at.toISOString(),
    sentAt: row.sent_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    expiresAt: row.expires_at.toISOString(),
  };
}

export async function insertCommand(
  db: Queryable,
  ids: { organizationId: string; clusterId: string },
  input: { name: CommandName; params: CommandParams; requestedBy: string; ttlMs: number },
): Promise<ClusterCommand> {
  const [row] = (await db('cluster_commands')
    .insert({
      organization_id: ids.organizationId,
      cluster_id: ids.clusterId,
      name: input.name,
      params: JSON.stringify(input.params),
      requested_by: input.requestedBy,
      expires_at: db.raw("now() + (? * interval '1 millisecond')", [input.ttlMs]),
    })
    .returning(COLUMNS)) as CommandRow[];
  return rowToCommand(row!);
}

export async function findCommand(db: Queryable, organizationId: string, clusterId: string, id: string) {
  const row = (await db('cluster_commands')
    .where({ organization_id: organizationId, cluster_id: clusterId, id })
    .first(readColumns(db))) as CommandRow | undefined;
  return row ? rowToCommand(row) : null;
}

/** Oldest first, by creation instant and id. */
export function listCommands(
  db: Queryable,
  organizationId: string,
  clusterId: string,
  page: PageRequest,
): Promise<Page<ClusterCommand>> {
  const rows = db('cluster_commands').where({ organization_id: organizationId, cluster_id: clusterId });
  return keysetPage<CommandRow & TimeKey, ClusterCommand>(
    chronological(db, rows, readColumns(db), 'created_at'),
    TIME_KEYS,
    page,
    (r) => [r.time_key, r.id],
    rowToCommand,
  );
}

/** Queued or sent commands past their deadline become expired; the rows that did, for their audit entries. */
export async function expireCommands(db: Queryable, clusterId: string): Promise<CommandRow[]> {
  return (await db('cluster_commands')
    .where({ cluster_id: clusterId })
    .whereIn('status', ['queued', 'sent'])
    .where('expires_at', '<=', db.fn.now())
    .update({ status: 'expired', finished_at: db.fn.now() })
    .returning(COLUMNS)) as CommandRow[];
}

/** Hands the oldest queued commands to the agent (status sent); SKIP LOCKED so two pulls never take the same one. */
export async function takeQueuedCommands(db: Queryable, clusterId: string, limit: number): Promise<CommandRow[]> {
  const ids = db('cluster_commands')
    .select('id')
    .where({ cluster_id: clusterId, status: 'queued' })
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return (await db('cluster_commands')
    .whereIn('id', ids)
    .update({ status: 'sent', sent_at: db.fn.now() })
    .returning(COLUMNS)) as CommandRow[];
}

/** Records the agent's result of a command it was sent; null when it is not this cluster's or not awaiting one. */
export async function finishCommand(
  db: Queryable,
  clusterId: string,
  id: string,
  outcome: { succeeded: boolean; result: NonNullable<ClusterCommand['result']> },
): Promise<CommandRow | null> {
  const [row] = (await db('cluster_commands')
    .where({ cluster_id: clusterId, id, status: 'sent' })
    .update({
      status: outcome.succeeded ? 'succeeded' : 'failed',
      result: JSON.stringify(outcome.result),
      finished_at: db.fn.now(),
    })
    .returning(COLUMNS)) as CommandRow[];
  return row ?? null;
}
