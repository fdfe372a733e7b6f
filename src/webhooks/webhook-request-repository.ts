import type { StatementSink } from '../db/statement-batch';
import type { Queryable } from '../db/knex';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';
import { Conflict } from '../errors';

export type WebhookKind = 'image-update' | 'cdcontroller';

export interface WebhookRequestRow {
  id: string;
  kind: WebhookKind;
  request_hash: string;
  organization_id: string;
  project_id: string | null;
  status: 'received' | 'queued' | 'committed' | 'failed';
  commit_sha: string | null;
  result: Record<string, unknown> | null;
  /** What is still to do (the outbox), until the request is finished. */
  work: unknown;
  /** What its commit waits out (a Git storage outage), while unfinished (null: nothing, or not known). */
  waiting: string | null;
  created_at: Date;
  expires_at: Date;
}

/**
 * Records a verified request under the hash of its signed bytes. The unique constraint decides replays: of two
 * identical requests, concurrent or not, exactly one inserts (`fresh`); the other gets the row recorded first.
 */
export async function claimRequest(
  db: Queryable,
  row: Pick<WebhookRequestRow, 'kind' | 'request_hash' | 'organization_id' | 'project_id'> & {
    expiresAt: Date;
    /** Given by the caller, to name the row in its work and answer before the insert; else made by PostgreSQL. */
    id?: string;
    work?: unknown;
    /** Recorded with the claim (issue 46: the outbox in the same statement): the answer so far, or the final one. */
    status?: WebhookRequestRow['status'];
    result?: Record<string, unknown>;
  },
): Promise<{ row: WebhookRequestRow; fresh: boolean }> {
  const [inserted] = (await db('webhook_requests')
    .insert({
      ...(row.id ? { id: row.id } : {}),
      kind: row.kind,
      request_hash: row.request_hash,
      organization_id: row.organization_id,
      project_id: row.project_id,
      status: row.status ?? 'received',
      expires_at: row.expiresAt,
      work: row.work === undefined ? null : JSON.stringify(row.work),
      result: row.result === undefined ? null : JSON.stringify(row.result),
    })
    .onConflict(['kind', 'request_hash'])
    .ignore()
    .returning('*')) as WebhookRequestRow[];
  if (inserted) return { row: inserted, fresh: true };
  const existing = (await db('webhook_requests').where({ kind: row.kind, request_hash: row.request_hash }).first()) as
    WebhookRequestRow | undefined;
  // Purged between the two statements (past its keep time): the timestamp is then outside the window anyway.
  if (!existing) throw new Conflict('duplicate webhook request');
  return { row: existing, fresh: false };
}

/**
 * Finishes a request that ended before it staged any work (refused, or a fault inside the platform): what its resends
 * are told. A row already staged or finished keeps its own outcome.
 */
export async function finishUnstagedRequest(db: Queryable, id: string, result: Record<string, unknown>) {
  await db('webhook_requests')
    .where({ id, status: 'received' })
    .whereNull('work')
    .update({ status: 'failed', result: JSON.stringify(result) });
}

/** The work still to do (and the answer so far), stored before the work is handed over: the outbox. */
export async function stageWork(db: Queryable, id: string, work: unknown, result?: Record<string, unknown>) {
  await db('webhook_requests')
    .where({ id })
    .update({ work: JSON.stringify(work), ...(result ? { result: JSON.stringify(result) } : {}) });
}

/**
 * The work was handed to Temporal: the status URL says `queued` until the workflow finishes it. A row a commit holds
 * locked is skipped (never waited for): that commit finishes it.
 */
export async function markQueued(db: Queryable, id: string): Promise<void> {
  await db.raw(
    `UPDATE webhook_requests SET status = 'queued'
     WHERE id = (SELECT id FROM webhook_requests WHERE id = ? AND status = 'received' FOR UPDATE SKIP LOCKED)`,
    [id],
  );
}

/**
 * The commit of these unfinished requests waits out a Git storage outage: their status URL says so until they are
 * finished. A row a commit holds locked is skipped (that commit finishes it).
 */
export async function noteRequestsWaiting(db: Queryable, ids: string[], note: string): Promise<void> {
  if (ids.length === 0) return;
  await db.raw(
    `UPDATE webhook_requests SET waiting = ?
     WHERE id IN (SELECT id FROM webhook_requests WHERE id = ANY(?::uuid[]) AND status IN ('received', 'queued')
                  FOR UPDATE SKIP LOCKED)`,
    [note, ids],
  );
}

export async function finishRequest(
  db: Queryable,
  id: string,
  outcome: { status: WebhookRequestRow['status']; commitSha?: string | null; result: Record<string, unknown> },
): Promise<void> {
  await db('webhook_requests')
    .where({ id })
    .update({
      status: outcome.status,
      commit_sha: outcome.commitSha ?? null,
      result: JSON.stringify(outcome.result),
      work: null,
    });
}

/** Notified (after commit) when a batch's request rows are finished: API processes waiting on them look at once. */
export const REQUESTS_FINISHED_CHANNEL = 'webhook_requests_finished';

/**
 * Finishes many requests in one statement of `sink`'s batch (a commit's); rows already finished stay. `finished` gets
 * the rows it finished once the batch ran. The notification is in the same statement: sent when the transaction
 * commits, once, and only when a row was finished (the subquery runs when the first finished row is returned).
 */
export function finishRequests(
  sink: StatementSink,
  outcomes: {
    id: string;
    status: WebhookRequestRow['status'];
    commitSha: string | null;
    result: Record<string, unknown>;
  }[],
  finished: (rows: WebhookRequestRow[]) => void,
): void {
  if (outcomes.length === 0) return finished([]);
  const rows = outcomes.map((o) => ({ id: o.id, status: o.status, commit_sha: o.commitSha, result: o.result }));
  sink.add(
    `WITH finished AS (
       UPDATE webhook_requests AS w SET status = v.status, commit_sha = v.commit_sha, result = v.result, work = NULL
       FROM jsonb_to_recordset(?::jsonb) AS v(id uuid, status text, commit_sha text, result jsonb)
       WHERE w.id = v.id AND w.status IN ('received', 'queued')
       RETURNING w.*)
     SELECT finished.*, (SELECT pg_notify(?, '')) AS notified FROM finished`,
    [JSON.stringify(rows), REQUESTS_FINISHED_CHANNEL],
    (answer) => finished(answer.map(({ notified: _notified, ...row }) => row as unknown as WebhookRequestRow)),
  );
}

/** Requests of a kind whose staged work was not finished this long after they were recorded (oldest first). */
export async function unfinishedRequests(
  db: Queryable,
  kind: WebhookKind,
  recordedBefore: Date,
  limit: number,
): Promise<WebhookRequestRow[]> {
  return (await db('webhook_requests')
    .where({ kind })
    .whereIn('status', ['received', 'queued'])
    .whereNotNull('work')
    .where('created_at', '<', recordedBefore)
    .orderBy('created_at')
    .limit(limit)) as WebhookRequestRow[];
}

/** The rows of these ids that are finished (committed or failed). */
export async function finishedOf(db: Queryable, ids: string[]): Promise<WebhookRequestRow[]> {
  if (ids.length === 0) return [];
  return (await db('webhook_requests')
    .whereIn('id', ids)
    .whereIn('status', ['committed', 'failed'])) as WebhookRequestRow[];
}

/** The rows of these ids that still wait for their work (an activity retried after its commit skips the rest). */
export async function unfinishedOf(
  db: Queryable,
  ids: string[],
  opts: { lock?: boolean } = {},
): Promise<WebhookRequestRow[]> {
  if (ids.length === 0) return [];
  return readRows(unfinishedRows(db, ids, opts));
}

/** `unfinishedOf` as a RowsQuery (an image-update batch reads and locks them with its project, issue 46). */
export function unfinishedRows(
  db: Queryable,
  ids: string[],
  opts: { lock?: boolean } = {},
): RowsQuery<WebhookRequestRow> {
  const query = db('webhook_requests').whereIn('id', ids).whereIn('status', ['received', 'queued']).orderBy('id');
  // Locked: a request being committed cannot be finished by anything else until that commit's transaction ends.
  if (opts.lock) void query.forUpdate();
  return rowsQuery<WebhookRequestRow, WebhookRequestRow>(query.select('*'), ['created_at', 'expires_at'], (row) => row);
}

export async function findRequest(db: Queryable, kind: WebhookKind, id: string): Promise<WebhookRequestRow | null> {
  return ((await db('webhook_requests').where({ id, kind }).first()) as WebhookRequestRow | undefined) ?? null;
}

/** Drops requests past their keep time (always past the replay window: their timestamps are refused anyway). */
export async function purgeExpiredRequests(db: Queryable, now: Date): Promise<number> {
  // Work not yet finished is kept: its status URL tells the truth until the end.
  return db('webhook_requests').where('expires_at', '<', now).whereNull('work').delete();
}
