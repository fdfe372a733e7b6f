import { DOMAIN_EVENT } from '../events/domain-event-repository';
import type { CommitOperationKind } from '../gitops/commit-operation';
import { refuseGoneTarget } from '../gitops/target-gone';
import { loadWorkloads } from '../gitops/override-patch';
import { applyMoves, movedChanges, movedWorkloads } from '../gitops/target-operation';
import type { WorkloadChange } from '../projects/workload-spec';

/**
 * A release: its changes set in the tenant-and-environment overrides, then that target's files regenerated;
 * `digest` is what the release validated (renderDigest of the target's files).
 */
export interface ReleaseOperation {
  type: 'release';
  tenant: string;
  environment: string;
  changes: WorkloadChange[];
  digest: string;
  details?: Record<string, unknown>;
}

declare module '../gitops/commit-operation' {
  interface CommitOperations {
    release: ReleaseOperation;
  }
}

const movesOf = (op: ReleaseOperation) => ({
  environment: op.environment,
  moves: [{ tenant: op.tenant, changes: op.changes }],
  digest: op.digest,
});

export const releaseOperation: CommitOperationKind<ReleaseOperation> = {
  type: 'release',
  load: (scope) => loadWorkloads(scope, movedWorkloads(movesOf(scope.req.operation).moves)),
  refuse({ req }, loaded) {
    refuseGoneTarget(loaded, {
      environments: [req.operation.environment],
      tenants: [req.operation.tenant],
      workloads: req.operation.changes.map((c) => c.workload),
    });
  },
  apply: (scope, loaded) => applyMoves(scope, loaded, movesOf(scope.req.operation)),
  changes: ({ req }, loaded, repo, parent) => movedChanges(loaded, movesOf(req.operation), repo, parent),
  record({ req }, loaded, base) {
    const op = req.operation;
    const tenantId = loaded.tenants.find((t) => t.slug === op.tenant)?.id ?? null;
    const details = {
      project: loaded.project.slug,
      tenant: op.tenant,
      environment: op.environment,
      changes: op.changes,
      commitKey: req.idempotencyKey,
      ...op.details,
    };
    const entry = {
      ...base,
      tenantId,
      resourceType: 'release',
      resourceId: req.releaseId ?? null,
      action: 'release.deploy',
      category: 'deployment' as const,
      details,
    };
    const payload = { ...details, releaseId: req.releaseId, tenantId, gitCommitSha: base.gitCommitSha };
    return {
      entries: [entry],
      events: ([auditId]) => [{ type: DOMAIN_EVENT.releaseDeployed, payload: { ...payload, auditId } }],
    };
  },
  source: (req) => ({ kind: 'release', id: req.releaseId ?? null, actor: req.actor.actor }),
};
