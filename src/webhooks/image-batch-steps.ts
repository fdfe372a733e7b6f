import type { Db, Queryable, Tx } from '../db/knex';
import { StatementBatch, type StatementSink } from '../db/statement-batch';
import { announceFinished } from './finished-here';
import { planBatch, type BatchPlan, type QueuedImageUpdate, type TargetRef } from './image-update-batch';
import { committedMarks, moveMarks } from './image-mark-repository';
import { finishRequests, unfinishedOf, type WebhookRequestRow } from './webhook-request-repository';

type Target = TargetRef & { tag?: string };
const sameTarget = (a: TargetRef) => (b: TargetRef) =>
  a.workload === b.workload && a.tenant === b.tenant && a.environment === b.environment && a.field === b.field;

/** The targets the entries' updates name. */
export function targetsOf(entries: QueuedImageUpdate[]): TargetRef[] {
  return entries.flatMap((e) =>
    e.updates.flatMap((u) =>
      u.pairs.map((p) => ({ workload: u.workload, ...p, ...(u.field ? { field: u.field } : {}) })),
    ),
  );
}

/**
 * Plans a batch from those of `entries` whose requests still wait (`rows`: a request already finished is not planned
 * again), against the marks of what earlier batches committed (of their targets, or more).
 */
export function planFrom(entries: QueuedImageUpdate[], rows: WebhookRequestRow[], marks: Map<string, number>) {
  const waiting = new Set(rows.map((r) => r.id));
  const live = entries.filter((e) => waiting.has(e.webhookId));
  return { plan: planBatch(live, marks), live, rows };
}

/**
 * `planFrom` with its rows and marks read here. `lock`: the rows are locked until the caller's transaction ends, so
 * nothing else finishes them meanwhile.
 */
export async function planWaiting(
  trx: Queryable,
  projectId: string,
  entries: QueuedImageUpdate[],
  lock = false,
): Promise<{ plan: BatchPlan; live: QueuedImageUpdate[]; rows: WebhookRequestRow[] }> {
  const rows = await unfinishedOf(
    trx,
    entries.map((e) => e.webhookId),
    { lock },
  );
  return planFrom(entries, rows, await committedMarks(trx, projectId, targetsOf(entries)));
}

/**
 * Finishes a batch's requests still waiting (`rows`: read locked in the caller's transaction), in `sink` (a commit
 * pass's batch): the marks of what it committed move, and each request row gets the commit's SHA (`accepted` with no
 * commit when its tree did not change) or the failure, with the targets a newer signed request took named as
 * superseded. Idempotent: finished rows are left as they are. The requests waiting in this process hear of the
 * finished rows once the transaction commits (finished-here.ts).
 */
export function finishImageRequests(
  sink: StatementSink,
  trx: Tx,
  projectId: string,
  plan: BatchPlan,
  outcome: { sha: string | null; error: string | null },
  rows: WebhookRequestRow[],
): void {
  const { sha, error } = outcome;
  if (!error) moveMarks(sink, projectId, plan.marks);
  const outcomes = rows.map((row) => {
    const base = (row.result ?? {}) as { updated?: Target[]; skipped?: unknown[] };
    const lost = plan.superseded[row.id] ?? [];
    const result = {
      ...base,
      status: error ? 'failed' : sha ? 'committed' : 'accepted',
      commit: error ? null : sha,
      updated: (base.updated ?? []).filter((u) => !lost.some(sameTarget(u))),
      skipped: [...(base.skipped ?? []), ...lost.map((t) => ({ ...t, reason: 'superseded' }))],
      ...(error ? { error } : {}),
    };
    return { id: row.id, status: error ? 'failed' : 'committed', commitSha: error ? null : sha, result } as const;
  });
  finishRequests(sink, outcomes, (finished) => announceFinished(trx, finished));
}

/**
 * `finishImageRequests` in a transaction of its own (the image-update workflow's), the rows read there, locked as a
 * commit locks them: a commit of these requests in progress ends first (and finishes them).
 */
export async function finishImageRequestsNow(
  db: Db,
  projectId: string,
  batch: { plan: BatchPlan; webhookIds: string[] },
  outcome: { sha: string | null; error: string | null },
): Promise<void> {
  await db.transaction(async (trx) => {
    const rows = await unfinishedOf(trx, batch.webhookIds, { lock: true });
    const statements = new StatementBatch();
    finishImageRequests(statements, trx, projectId, batch.plan, outcome, rows);
    await statements.send(trx);
  });
}
