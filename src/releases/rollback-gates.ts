import type { Db } from '../db/knex';
import { frozenMessage, type GovernanceGate } from '../governance/governance-verdict';
import type { OrgCaller } from '../iam/caller';
import type { ReleaseEvaluationDeps } from './release-evaluation';
import { targetQueue } from './target-queue';

/**
 * What a rollback of the target would meet before its commit, named for its preview: the freezes (refused unless the
 * caller's break-glass covers them), the approval policies it would wait for (none under break-glass), the release
 * it would queue behind, and the first status it would reach, as the rollback route and its release workflow decide.
 */
export async function rollbackGates(
  deps: { db: Db; governance: GovernanceGate; evaluation: ReleaseEvaluationDeps },
  caller: OrgCaller,
  target: { projectId: string; tenantId: string; tenant: string; environment: string; autoDeploy: boolean },
) {
  const { db } = deps;
  const { projectId, tenantId, environment } = target;
  const organizationId = caller.organizationId;
  const gate = await deps.governance.check(
    db,
    { organizationId, projectId, environment, tenants: [target.tenant] },
    'rollback',
    caller.principal.userId,
  );
  const policies = gate.breakGlass
    ? []
    : await deps.evaluation.releasePolicies.approvalPolicies(db, { organizationId, projectId, environment, tenantId });
  const queue = await targetQueue(db, { projectId, tenantId, environment });
  const named = policies.map((p) => `"${p.name}" (${p.requiredApprovals})`).join(', ');
  const outcome = gate.blocked
    ? { status: 'Refused', reason: `${target.tenant}/${environment} is ${frozenMessage(gate.freezes)}` }
    : policies.length > 0
      ? { status: 'PendingApproval', reason: `the rollback waits for the approvals of ${named} before it commits` }
      : !target.autoDeploy
        ? { status: 'AwaitingDeploy', reason: 'the rollback waits for a deploy call' }
        : queue
          ? { status: 'Queued', reason: queue.reason }
          : { status: 'Deploying', reason: null };
  return {
    outcome,
    approvalPolicies: policies.map((p) => ({ id: p.id, name: p.name, requiredApprovals: p.requiredApprovals })),
    freezes: gate.freezes,
    breakGlass: gate.breakGlass,
    queue,
  };
}
