/**
 * Approval decisions of a release (pure: the workflow's Update validators run them). Every applicable policy must
 * reach its required number of approvals from its own eligible approvers; one person's approval counts for every
 * policy they are eligible under.
 */
import type { ApprovalPolicySnapshot, ApproverProfile } from './release-workflow-contract';

export function isEligible(policy: ApprovalPolicySnapshot, approver: ApproverProfile): boolean {
  const { roles, teams, users } = policy.eligibleApprovers;
  return (
    roles.includes(approver.role) ||
    users.includes(approver.userId) ||
    approver.teamIds.some((team) => teams.includes(team))
  );
}

export type ApprovalRefusal = { reason: 'self-approval' | 'already-decided' | 'not-eligible'; message: string };

/**
 * Why `approver` may not approve (or reject): they created the release and no policy lets them, they already
 * decided, or no policy counts them. Null when they may.
 */
export function approvalRefusal(
  policies: ApprovalPolicySnapshot[],
  requesterUserId: string | null,
  approver: ApproverProfile,
  decidedBy: string[],
): ApprovalRefusal | null {
  if (decidedBy.includes(approver.userId)) {
    return { reason: 'already-decided', message: 'you have already approved or rejected this release' };
  }
  const counting = policies.filter((p) => isEligible(p, approver));
  if (counting.length === 0) {
    const names = policies.map((p) => p.name).join(', ');
    return { reason: 'not-eligible', message: `you are not an eligible approver under the approval policy ${names}` };
  }
  if (approver.userId === requesterUserId && !counting.some((p) => p.allowSelfApproval)) {
    return { reason: 'self-approval', message: 'you cannot approve a release you created' };
  }
  return null;
}

export interface PolicyQuorum {
  policyId: string;
  name: string;
  required: number;
  received: number;
}

/** Approvals each policy has received from its eligible approvers (self-approvals only where the policy allows). */
export function quorum(
  policies: ApprovalPolicySnapshot[],
  requesterUserId: string | null,
  approvals: ApproverProfile[],
): { met: boolean; policies: PolicyQuorum[] } {
  const perPolicy = policies.map((policy) => ({
    policyId: policy.id,
    name: policy.name,
    required: policy.requiredApprovals,
    received: approvals.filter(
      (a) => isEligible(policy, a) && (policy.allowSelfApproval || a.userId !== requesterUserId),
    ).length,
  }));
  return { met: perPolicy.every((p) => p.received >= p.required), policies: perPolicy };
}

/** The earliest instant a pending request expires under its policies (ms since epoch), or null. */
export function approvalDeadline(policies: ApprovalPolicySnapshot[], waitingSince: number): number | null {
  const minutes = policies.map((p) => p.expiresAfterMinutes).filter((m): m is number => m !== null);
  return minutes.length === 0 ? null : waitingSince + Math.min(...minutes) * 60_000;
}
