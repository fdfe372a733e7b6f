import { DOMAIN_EVENT } from '../events/domain-event-repository';
import { COMMIT_FAILURE, CommitRefused } from '../gitops/commit-failure';
import type { CommitOperationKind } from '../gitops/commit-operation';
import { refuseGoneTarget } from '../gitops/target-gone';
import { applyMoves, movedChanges } from '../gitops/target-operation';
import { pinTarget } from '../pins/pin-repository';
import type { WorkloadChange } from '../projects/workload-spec';
import { findRollout } from './rollout-repository';

/**
 * A halted rollout's rollback (plan option `rollbackOnHalt`): every tenant of the waves it deployed set back to the
 * tag it ran before, in one commit, each tenant pinned in the commit's transaction so automation does not move it
 * forward again (docs/rollouts.md).
 */
export interface RolloutRollbackOperation {
  type: 'rollout-rollback';
  rolloutId: string;
  environment: string;
  moves: { tenant: string; tenantId: string; changes: WorkloadChange[] }[];
  digest: string;
  reason: string;
}

declare module '../gitops/commit-operation' {
  interface CommitOperations {
    'rollout-rollback': RolloutRollbackOperation;
  }
}

export const rolloutRollbackOperation: CommitOperationKind<RolloutRollbackOperation> = {
  type: 'rollout-rollback',
  async refuse({ req, trx }, loaded) {
    const op = req.operation;
    // Read under the repository's lock: the newer rollout moves these tenants on, setting them back would undo that.
    const rollout = await findRollout(trx, req.organizationId, op.rolloutId);
    if (rollout?.status === 'Superseded') {
      throw new CommitRefused(
        COMMIT_FAILURE.superseded,
        `rollout ${op.rolloutId} was superseded: nothing to roll back`,
      );
    }
    refuseGoneTarget(loaded, {
      environments: [op.environment],
      tenants: op.moves.map((m) => m.tenant),
      workloads: op.moves.flatMap((m) => m.changes.map((c) => c.workload)),
    });
  },
  async apply(scope, loaded) {
    const op = scope.req.operation;
    for (const move of op.moves) {
      await pinTarget(scope.trx, {
        organization_id: scope.req.organizationId,
        project_id: scope.req.projectId,
        tenant_id: move.tenantId,
        tenant_slug: move.tenant,
        environment: op.environment,
        reason: `rollout ${op.rolloutId} rolled back: ${op.reason}`,
        release_id: null,
        pinned_by: scope.req.actor.userId,
        pinned_by_actor: scope.req.actor.actor,
      });
    }
    return applyMoves(scope, loaded, op);
  },
  changes: ({ req }, loaded, repo, parent) => movedChanges(loaded, req.operation, repo, parent),
  record({ req }, loaded, base) {
    const op = req.operation;
    const details = {
      project: loaded.project.slug,
      environment: op.environment,
      tenants: op.moves.map((m) => m.tenant),
      moves: op.moves,
      reason: op.reason,
      pinned: true,
      commitKey: req.idempotencyKey,
    };
    const entry = {
      ...base,
      resourceType: 'rollout',
      resourceId: op.rolloutId,
      action: 'rollback.initiate',
      category: 'deployment' as const,
      details,
    };
    const payload = { ...details, rolloutId: op.rolloutId, gitCommitSha: base.gitCommitSha };
    return {
      entries: [entry],
      events: ([auditId]) => [{ type: DOMAIN_EVENT.rollbackInitiated, payload: { ...payload, auditId } }],
    };
  },
  source: (req) => ({ kind: 'promotion', id: null, actor: req.actor.actor }),
};
