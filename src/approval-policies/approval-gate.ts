import type { Queryable } from '../db/knex';
import { findMember } from '../orgs/membership-repository';
import { teamsOfUser } from '../teams/team-repository';
import {
  applicablePolicies,
  type ApprovalPolicySnapshot,
  type ApprovalTarget,
  type Approver,
} from './approval-decision';
import { enabledApprovalPoliciesOf } from './approval-policy-repository';

export type { ApprovalPolicySnapshot, ApprovalTarget, Approver } from './approval-decision';

/** The stored policy reduced to its snapshot: plain JSON, no timestamps, safe as a workflow argument. */
function snapshotOf(policy: ApprovalPolicySnapshot): ApprovalPolicySnapshot {
  return {
    id: policy.id,
    name: policy.name,
    projectId: policy.projectId,
    environments: [...policy.environments],
    tenantIds: policy.tenantIds ? [...policy.tenantIds] : null,
    requiredApprovals: policy.requiredApprovals,
    eligibleApprovers: {
      roles: [...policy.eligibleApprovers.roles],
      teams: [...policy.eligibleApprovers.teams],
      users: [...policy.eligibleApprovers.users],
    },
    allowSelfApproval: policy.allowSelfApproval,
    expiresAfterMinutes: policy.expiresAfterMinutes,
    enabled: policy.enabled,
  };
}

/**
 * The approval policies a release to `target` must satisfy (for the release activity). Snapshots are taken when the
 * release starts: a policy changed later does not change a running release's requirement.
 */
export async function approvalRequirement(
  db: Queryable,
  organizationId: string,
  target: ApprovalTarget,
): Promise<{ policies: ApprovalPolicySnapshot[] }> {
  const enabled = await enabledApprovalPoliciesOf(db, organizationId, target.projectId);
  return { policies: applicablePolicies(enabled.map(snapshotOf), target) };
}

/** Who an approver is for the decision functions: their organization role (null when not a member) and teams. */
export async function approverProfile(db: Queryable, organizationId: string, userId: string): Promise<Approver> {
  const member = await findMember(db, organizationId, userId);
  if (!member) return { userId, role: null, teamIds: [] };
  const teams = await teamsOfUser(db, organizationId, userId);
  return { userId, role: member.role, teamIds: teams.map((t) => t.id) };
}
