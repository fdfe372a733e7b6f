import type { ApprovalPolicySnapshot, Approver } from '../../src/approval-policies/approval-decision';
import { quorum } from '../../src/approval-policies/approval-decision';

/**
 * The one-line "current details" a workflow shows in the Temporal UI (setCurrentDetails): what it waits for, in
 * words, so ops can read a RUNNING workflow at a glance. Pure functions, shared by every workflow.
 */

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `waiting for 1 approval (policy prod-gate)`; the policies still short of their quorum are named. */
export function approvalsDetails(policies: readonly ApprovalPolicySnapshot[], approvals: readonly Approver[]): string {
  const short = quorum(policies, approvals).perPolicy.filter((p) => !p.met);
  const missing = short.reduce((sum, p) => sum + (p.required - p.received), 0);
  const names = short.map((p) => p.name).join(', ');
  return `waiting for ${plural(missing, 'approval')} (${short.length === 1 ? 'policy' : 'policies'} ${names})`;
}

/** `frozen until 2026-11-30T06:00:00.000Z (frozen by Weekend)`; a freeze without a known end says so. */
export function frozenDetails(clearsAt: number | null, reason: string): string {
  return `${clearsAt === null ? 'frozen with no known end' : `frozen until ${new Date(clearsAt).toISOString()}`} (${reason})`;
}

/** `queued behind release <title>`. */
export function queuedDetails(behind: string | null): string {
  return behind === null ? 'queued for its target' : `queued behind release ${behind}`;
}

/**
 * A promotion's blocking causes, one clause each: a freeze with a known end says until when, and missing approvals
 * read as `approvals` (from approvalsDetails).
 */
export function blockedDetails(
  causes: readonly { cause: string; message: string }[],
  clearsAt: number | null,
  approvals: string,
): string {
  return causes
    .map((c) => {
      if (c.cause === 'approvals') return approvals;
      return c.cause === 'freeze' && clearsAt !== null ? frozenDetails(clearsAt, c.message) : c.message;
    })
    .join('; ');
}

/** `group 2/3: api — waiting for Synced and Healthy at 0123456789ab` (a release or promotion in service order). */
export function groupDetails(index: number, total: number, workloads: readonly string[], sha: string | null): string {
  const what = sha === null ? 'committing' : `waiting for Synced and Healthy at ${sha.slice(0, 12)}`;
  return `group ${index + 1}/${total}: ${workloads.join(', ')} — ${what}`;
}
