import type { Db } from '../src/db/knex';
import { batchCommit, planBatch, type QueuedImageUpdate, type TargetRef } from '../src/webhooks/image-update-batch';
import type { ImageUpdateActivities, PlannedBatch } from '../src/webhooks/image-update-workflow-contract';
import { committedMarks, moveMarks } from '../src/webhooks/image-mark-repository';
import { finishRequests, unfinishedOf } from '../src/webhooks/webhook-request-repository';

export interface ImageUpdateActivityDeps {
  db: Db;
}

type Target = TargetRef & { tag?: string };
const sameTarget = (a: TargetRef) => (b: TargetRef) =>
  a.workload === b.workload && a.tenant === b.tenant && a.environment === b.environment;

/**
 * The project workflow's two steps around its commit: plan a batch from the requests still waiting (against the
 * marks of what earlier batches committed), then finish it: move the marks and finish every request row with the
 * SHA (or the failure) in one transaction. Both are idempotent: a retried finish finds its rows finished.
 */
export function createImageUpdateActivities({ db }: ImageUpdateActivityDeps): ImageUpdateActivities {
  return {
    async planImageBatch({ organizationId, projectId, entries }): Promise<PlannedBatch> {
      const waiting = new Set(
        (
          await unfinishedOf(
            db,
            entries.map((e) => e.webhookId),
          )
        ).map((r) => r.id),
      );
      const live: QueuedImageUpdate[] = entries.filter((e) => waiting.has(e.webhookId));
      const targets = live.flatMap((e) =>
        e.updates.flatMap((u) => u.pairs.map((p) => ({ workload: u.workload, ...p }))),
      );
      const plan = planBatch(live, await committedMarks(db, projectId, targets));
      return {
        plan,
        webhookIds: live.map((e) => e.webhookId),
        commit: batchCommit({ organizationId, projectId }, live, plan),
      };
    },

    async finishImageBatch({ projectId, batch, sha, error }): Promise<void> {
      await db.transaction(async (trx) => {
        if (!error) await moveMarks(trx, projectId, batch.plan.marks);
        const rows = await unfinishedOf(trx, batch.webhookIds);
        await finishRequests(
          trx,
          rows.map((row) => {
            const base = (row.result ?? {}) as { updated?: Target[]; skipped?: unknown[] };
            const lost = batch.plan.superseded[row.id] ?? [];
            const result = {
              ...base,
              status: error ? 'failed' : sha ? 'committed' : 'accepted',
              commit: error ? null : sha,
              updated: (base.updated ?? []).filter((u) => !lost.some(sameTarget(u))),
              skipped: [...(base.skipped ?? []), ...lost.map((t) => ({ ...t, reason: 'superseded' }))],
              ...(error ? { error } : {}),
            };
            return { id: row.id, status: error ? 'failed' : 'committed', commitSha: error ? null : sha, result };
          }),
        );
      });
    },
  };
}
