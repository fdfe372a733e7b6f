import { DOMAIN_EVENT } from '../events/domain-event-repository';
import { COMMIT_FAILURE, CommitRefused } from '../gitops/commit-failure';
import type { CommitOperationKind } from '../gitops/commit-operation';
import { refuseGoneTarget } from '../gitops/target-gone';
import { loadWorkloads } from '../gitops/override-patch';
import { applyMoves, movedChanges, movedWorkloads } from '../gitops/target-operation';
import type { WorkloadChange } from '../projects/workload-spec';
import { findPromotion } from './promotion-repository';

/**
 * A promotion: each tenant's changes set in its overrides of the target environment, then those tenants' files
 * regenerated in one commit; `digest` is what the promotion rendered (renderDigest of those files).
 */
export interface PromotionOperation {
  type: 'promotion';
  promotionId: string;
  /** The source environment, or for a wave of an image rollout the change it applies (`image web 2.0.0`). */
  sourceEnvironment: string;
  environment: string;
  moves: { tenant: string; changes: WorkloadChange[] }[];
  digest: string;
  details?: Record<string, unknown>;
}

declare module '../gitops/commit-operation' {
  interface CommitOperations {
    promotion: PromotionOperation;
  }
}

export const promotionOperation: CommitOperationKind<PromotionOperation> = {
  type: 'promotion',
  load: (scope) => loadWorkloads(scope, movedWorkloads(scope.req.operation.moves)),
  async refuse({ req, trx }, loaded) {
    const op = req.operation;
    const promotion = await findPromotion(trx, req.organizationId, op.promotionId);
    // Read under the repository's lock: a commit this refuses would have landed after the newer rollout's.
    if (promotion?.superseded_by) {
      throw new CommitRefused(
        COMMIT_FAILURE.superseded,
        `its image rollout was superseded by rollout ${promotion.superseded_by}`,
      );
    }
    // A wave of an image rollout has no source environment (its `sourceEnvironment` names the change it applies).
    const source = promotion?.source_environment ?? null;
    const environments = [op.environment, ...(source === null ? [] : [source])];
    refuseGoneTarget(loaded, {
      environments,
      tenants: op.moves.map((m) => m.tenant),
      workloads: op.moves.flatMap((m) => m.changes.map((c) => c.workload)),
    });
  },
  apply: (scope, loaded) => applyMoves(scope, loaded, scope.req.operation),
  changes: ({ req }, loaded, repo, parent) => movedChanges(loaded, req.operation, repo, parent),
  record({ req }, loaded, base) {
    const op = req.operation;
    const details = {
      project: loaded.project.slug,
      sourceEnvironment: op.sourceEnvironment,
      environment: op.environment,
      tenants: op.moves.map((m) => m.tenant),
      moves: op.moves,
      commitKey: req.idempotencyKey,
      ...op.details,
    };
    const entry = {
      ...base,
      resourceType: 'promotion',
      resourceId: op.promotionId,
      action: 'promotion.execute',
      category: 'promotion' as const,
      details,
    };
    const payload = { ...details, promotionId: op.promotionId, gitCommitSha: base.gitCommitSha };
    return {
      entries: [entry],
      events: ([auditId]) => [{ type: DOMAIN_EVENT.promotionExecuted, payload: { ...payload, auditId } }],
    };
  },
  source: (req) => ({ kind: 'promotion', id: req.operation.promotionId, actor: req.actor.actor }),
};
