import type { ApprovalPolicySnapshot } from './release-workflow-contract';

/**
 * The instant a pending approval request expires under its policies (ms since epoch): the earliest expiry of any of
 * them, or null when none expires. Pure: the release workflow runs it.
 */
export function approvalDeadline(policies: ApprovalPolicySnapshot[], waitingSince: number): number | null {
  const minutes = policies.map((p) => p.expiresAfterMinutes).filter((m): m is number => m !== null);
  return minutes.length === 0 ? null : waitingSince + Math.min(...minutes) * 60_000;
}
