import type { OrgRole } from '../iam/principal';
import { atLeast } from '../iam/role-authorizer';

/**
 * An approval policy as the release workflow sees it: plain JSON (no Dates, no class instances), so it can travel in
 * a workflow's input and be replayed unchanged.
 */
export interface ApprovalPolicySnapshot {
  id: string;
  name: string;
  projectId: string;
  /** Environment slugs; empty means every environment. */
  environments: string[];
  /** Project tenant ids; null means every tenant. */
  tenantIds: string[] | null;
  requiredApprovals: number;
  /** Roles are floors (`admin` lets owners approve too); teams and users are ids of the organization. */
  eligibleApprovers: { roles: OrgRole[]; teams: string[]; users: string[] };
  allowSelfApproval: boolean;
  expiresAfterMinutes: number | null;
  enabled: boolean;
}

export interface ApprovalTarget {
  projectId: string;
  environment: string;
  tenantId: string;
}

export interface Approver {
  userId: string;
  role: OrgRole | null;
  teamIds: string[];
}

export type ApprovalRefusal = 'self-approval' | 'already-approved' | 'not-eligible';

export type ApproveDecision = { ok: true } | { ok: false; reason: ApprovalRefusal; message: string };

export interface PolicyQuorum {
  policyId: string;
  name: string;
  required: number;
  received: number;
  met: boolean;
}

export interface Quorum {
  met: boolean;
  /** Sum of the applicable policies' required approvals. */
  required: number;
  /** Approvals counted towards them (each policy counts at most its own requirement). */
  received: number;
  perPolicy: PolicyQuorum[];
}

/** Does this policy cover the target? */
export function covers(policy: ApprovalPolicySnapshot, target: ApprovalTarget): boolean {
  return (
    policy.enabled &&
    policy.projectId === target.projectId &&
    (policy.environments.length === 0 || policy.environments.includes(target.environment)) &&
    (policy.tenantIds === null || policy.tenantIds.length === 0 || policy.tenantIds.includes(target.tenantId))
  );
}

/** The enabled policies that cover a release's target: every one of them must be satisfied. */
export function applicablePolicies(
  policies: readonly ApprovalPolicySnapshot[],
  target: ApprovalTarget,
): ApprovalPolicySnapshot[] {
  return policies.filter((p) => covers(p, target));
}

/** Someone who is no longer a member of the organization (role null) is never eligible, even when named. */
export function isEligible(policy: ApprovalPolicySnapshot, approver: Approver): boolean {
  const { roles, teams, users } = policy.eligibleApprovers;
  if (approver.role === null) return false;
  return (
    users.includes(approver.userId) ||
    roles.some((role) => atLeast(approver.role, role)) ||
    approver.teamIds.some((team) => teams.includes(team))
  );
}

/**
 * May this person approve now? Refusals, in this order: a second approval by the same person, the requester
 * approving their own request (unless a policy they are eligible for allows it), someone no policy makes eligible.
 */
export function canApprove(
  policies: readonly ApprovalPolicySnapshot[],
  approver: Approver,
  requesterUserId: string | null,
  existingApprovals: readonly { userId: string }[],
): ApproveDecision {
  if (existingApprovals.some((a) => a.userId === approver.userId)) {
    return { ok: false, reason: 'already-approved', message: 'you have already approved this request' };
  }
  const eligibleFor = policies.filter((p) => isEligible(p, approver));
  if (approver.userId === requesterUserId && !eligibleFor.some((p) => p.allowSelfApproval)) {
    return { ok: false, reason: 'self-approval', message: 'you cannot approve your own request' };
  }
  if (eligibleFor.length === 0) {
    const names = policies.map((p) => `"${p.name}"`).join(', ');
    const message = names
      ? `you are not an eligible approver of the approval policy ${names}`
      : 'no approval policy applies to this request';
    return { ok: false, reason: 'not-eligible', message };
  }
  return { ok: true };
}

/**
 * Whether the approvals received satisfy every applicable policy: each needs its own `requiredApprovals` from its
 * own eligible approvers (one approval may count for several policies). No policy means nothing to wait for.
 */
export function quorum(policies: readonly ApprovalPolicySnapshot[], approvals: readonly Approver[]): Quorum {
  const perPolicy = policies.map((p) => {
    const received = new Set(approvals.filter((a) => isEligible(p, a)).map((a) => a.userId)).size;
    return {
      policyId: p.id,
      name: p.name,
      required: p.requiredApprovals,
      received,
      met: received >= p.requiredApprovals,
    };
  });
  return {
    met: perPolicy.every((p) => p.met),
    required: perPolicy.reduce((sum, p) => sum + p.required, 0),
    received: perPolicy.reduce((sum, p) => sum + Math.min(p.received, p.required), 0),
    perPolicy,
  };
}

/** The instant a pending request expires under its policies (ms since epoch): the earliest expiry, or null for none. */
export function approvalDeadline(policies: readonly ApprovalPolicySnapshot[], waitingSince: number): number | null {
  const minutes = policies.map((p) => p.expiresAfterMinutes).filter((m): m is number => m !== null);
  return minutes.length === 0 ? null : waitingSince + Math.min(...minutes) * 60_000;
}
