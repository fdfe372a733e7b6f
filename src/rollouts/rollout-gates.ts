import type { ApprovalPolicySnapshot } from '../approval-policies/approval-decision';
import { destinationKey } from '../gitops/destinations';
import type { LoadedProject } from '../gitops/delivery-model';
import type { PlanWave } from './rollout-plan';
import type { RolloutWave } from './rollout-workflow-contract';
import type { ResolvedWave } from './wave-selection';

/** `approvalGate: true`: one approval by a member of the organization other than the rollout's requester. */
function memberGate(projectId: string): ApprovalPolicySnapshot {
  return {
    id: 'rollout-gate',
    name: 'rollout wave gate',
    projectId,
    environments: [],
    tenantIds: null,
    requiredApprovals: 1,
    eligibleApprovers: { roles: ['member'], teams: [], users: [] },
    allowSelfApproval: false,
    expiresAfterMinutes: null,
    enabled: true,
  };
}

/** The snapshot of an approval policy as a workflow argument: plain JSON, no timestamps. */
function snapshotOf(p: ApprovalPolicySnapshot): ApprovalPolicySnapshot {
  const { id, name, projectId, environments, tenantIds, requiredApprovals, eligibleApprovers } = p;
  const { allowSelfApproval, expiresAfterMinutes, enabled } = p;
  return {
    ...{ id, name, projectId, environments, tenantIds, requiredApprovals, eligibleApprovers },
    ...{ allowSelfApproval, expiresAfterMinutes, enabled },
  };
}

/**
 * Each resolved wave as the workflow follows it: the policies of its approval gate (none, the member gate, or the
 * named policy of the project) and its tenants' namespaces in the environment (for check templates).
 */
export function rolloutWaves(
  resolved: ResolvedWave[],
  plan: readonly PlanWave[],
  loaded: LoadedProject,
  environment: string,
  policies: readonly ApprovalPolicySnapshot[],
): RolloutWave[] {
  return resolved.map((wave, i) => {
    const gate = plan[i]?.approvalGate ?? false;
    const named = typeof gate === 'string' ? policies.find((p) => p.name === gate) : undefined;
    const gatePolicies = gate === true ? [memberGate(loaded.project.id)] : named ? [snapshotOf(named)] : [];
    const namespaces = wave.tenants.map(
      (t) => loaded.model.destinations?.get(destinationKey(t, environment))?.argo.namespace ?? `${t}-${environment}`,
    );
    return { ...wave, gatePolicies, namespaces };
  });
}
