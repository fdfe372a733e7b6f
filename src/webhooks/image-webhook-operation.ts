import { createHash } from 'node:crypto';
import type { CommitOperationKind, CommitRequest, OperationScope } from '../gitops/commit-operation';
import { applyImageUpdates, imageChanges, imageRecord, workloadsOf } from '../gitops/image-operation';
import { loadProjectWith } from '../gitops/delivery-model';
import { SUBSYSTEM } from '../iam/subsystems';
import { finishImageRequests, planFrom, targetsOf } from './image-batch-steps';
import { markRows, marksOf } from './image-mark-repository';
import type { BatchPlan, QueuedImageUpdate } from './image-update-batch';
import { unfinishedRows, type WebhookRequestRow } from './webhook-request-repository';

/**
 * Verified image-update requests of one project, planned inside the commit's unit (issue 35): under the repository's
 * advisory lock and in the commit's transaction, the requests still waiting are locked, the newest signed tag of each
 * target wins against the marks earlier commits moved, and the request rows are finished with the commit. Whichever
 * process commits them (the API that took them, or the project's image-update workflow when it could not), batches
 * of one project are serialized and a request is committed once.
 */
export type ImageWebhookOperation = { type: 'image-webhook'; entries: QueuedImageUpdate[] };

declare module '../gitops/commit-operation' {
  interface CommitOperations {
    'image-webhook': ImageWebhookOperation;
  }
}

type Scope = OperationScope<ImageWebhookOperation>;

/** What a write in progress read with its project: its request rows (locked) and the marks of their targets. */
const batchReads = new WeakMap<Scope, { rows: WebhookRequestRow[]; marks: Map<string, number> }>();
/** The plan of a write in progress, from its `apply` to its `settle` (the same scope object throughout). */
const plans = new WeakMap<Scope, { plan: BatchPlan; rows: WebhookRequestRow[] }>();

function planOf(scope: Scope) {
  const planned = plans.get(scope);
  if (!planned) throw new Error('image-webhook write used before it was planned');
  return planned;
}

export const imageWebhookOperation: CommitOperationKind<ImageWebhookOperation> = {
  type: 'image-webhook',
  // One statement (issue 46): the project with the batch's workloads, locked (apply patches them without reading them
  // again), the batch's request rows still waiting, locked (nothing else finishes them until this commit ends), and
  // the marks of their targets.
  async load(scope) {
    const { trx, req, ctx } = scope;
    const { entries } = req.operation;
    const { loaded, also } = await loadProjectWith(
      trx,
      {
        organizationId: req.organizationId,
        projectId: req.projectId,
        ctx,
        workloadNames: workloadsOf(entries.flatMap((e) => e.updates)),
        lockWorkloads: true,
      },
      {
        requests: unfinishedRows(
          trx,
          entries.map((e) => e.webhookId),
          { lock: true },
        ),
        marks: markRows(trx, req.projectId, targetsOf(entries)),
      },
    );
    batchReads.set(scope, { rows: also.requests, marks: marksOf(also.marks) });
    return loaded;
  },
  async apply(scope, loaded) {
    const read = batchReads.get(scope);
    if (!read) throw new Error('image-webhook write applied before it was loaded');
    const { plan, rows } = planFrom(scope.req.operation.entries, read.rows, read.marks);
    plans.set(scope, { plan, rows });
    return plan.updates.length > 0 ? applyImageUpdates(scope, loaded, plan.updates, true) : loaded;
  },
  async changes(scope, loaded, repo, parent) {
    const { updates } = planOf(scope).plan;
    // Every target was superseded, or every request was finished elsewhere: nothing to write, no commit.
    return updates.length > 0 ? imageChanges(updates, loaded, repo, parent) : { writes: new Map(), deletes: [] };
  },
  record: (scope, loaded, base) =>
    imageRecord(planOf(scope).plan.updates, { source: 'webhook' }, scope.req.actor.actor, loaded, base),
  settle(scope, _loaded, sha) {
    const { plan, rows } = planOf(scope);
    finishImageRequests(scope.batch, scope.trx, scope.req.projectId, plan, { sha, error: null }, rows);
  },
  source: (req) => ({ kind: 'webhook', id: req.actor.requestId, actor: req.actor.actor }),
};

/**
 * The write of a batch of requests, named by its requests: the same batch again (a retry, or another process given
 * the same requests) finds the commit made for it.
 */
export function imageWebhookCommit(
  target: { organizationId: string; projectId: string },
  entries: QueuedImageUpdate[],
  workflowId: string,
): CommitRequest<ImageWebhookOperation> {
  const ids = entries.map((e) => e.webhookId);
  const workloads = new Set(entries.flatMap((e) => e.updates.map((u) => u.workload)));
  return {
    ...target,
    idempotencyKey: `webhook-${createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 40)}`,
    workflowId,
    message: `Image update via webhook: ${[...workloads].sort().join(', ')} from ${ids.length} request(s)`,
    actor: {
      userId: null,
      actorType: 'system',
      actor: SUBSYSTEM.imageWebhook,
      email: null,
      requestId: entries[0]?.requestId ?? null,
    },
    operation: { type: 'image-webhook', entries },
  };
}
