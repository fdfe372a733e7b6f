import { createHash } from 'node:crypto';
import type { CommitOperationKind, CommitRequest, OperationScope } from '../gitops/commit-operation';
import { applyImageUpdates, imageChanges, imageRecord, workloadsOf } from '../gitops/image-operation';
import { loadWorkloads } from '../gitops/override-patch';
import { SUBSYSTEM } from '../iam/subsystems';
import { finishImageRequests, planWaiting } from './image-batch-steps';
import type { BatchPlan, QueuedImageUpdate } from './image-update-batch';
import type { WebhookRequestRow } from './webhook-request-repository';

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

/** The plan of a write in progress, from its `apply` to its `settle` (the same scope object throughout). */
const plans = new WeakMap<Scope, { plan: BatchPlan; webhookIds: string[]; rows: WebhookRequestRow[] }>();

function planOf(scope: Scope) {
  const planned = plans.get(scope);
  if (!planned) throw new Error('image-webhook write used before it was planned');
  return planned;
}

export const imageWebhookOperation: CommitOperationKind<ImageWebhookOperation> = {
  type: 'image-webhook',
  load: (scope) => loadWorkloads(scope, workloadsOf(scope.req.operation.entries.flatMap((e) => e.updates))),
  async apply(scope, loaded) {
    const { plan, live, rows } = await planWaiting(scope.trx, scope.req.projectId, scope.req.operation.entries, true);
    plans.set(scope, { plan, webhookIds: live.map((e) => e.webhookId), rows });
    return plan.updates.length > 0 ? applyImageUpdates(scope, loaded, plan.updates) : loaded;
  },
  async changes(scope, loaded, repo, parent) {
    const { updates } = planOf(scope).plan;
    // Every target was superseded, or every request was finished elsewhere: nothing to write, no commit.
    return updates.length > 0 ? imageChanges(updates, loaded, repo, parent) : { writes: new Map(), deletes: [] };
  },
  record: (scope, loaded, base) =>
    imageRecord(planOf(scope).plan.updates, { source: 'webhook' }, scope.req.actor.actor, loaded, base),
  async settle(scope, _loaded, sha) {
    const planned = planOf(scope);
    await finishImageRequests(scope.trx, scope.req.projectId, planned, { sha, error: null }, planned.rows);
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
