import type { BreakGlassGrant, Promotion, Release, ReleaseSummary } from './api-types';
import type { Observation } from './watch';

/** A release as its detail or the project's list answers it (the list leaves out approvals and what it waits for). */
export type ReleaseView = Release | ReleaseSummary;
/** An Application the controller has not yet reported Synced and Healthy at the awaited commit. */
type AwaitedApplication = Release['waitingFor'][number] & { tenant?: string };

/** `break-glass session <id> (ops@example.com: incident 42)` */
export function breakGlassText(g: BreakGlassGrant): string {
  return `break-glass session ${g.sessionId} (${g.actor ?? g.userId}: ${g.justification})`;
}

/** The approvals in words: received of required per policy, or the break-glass session that bypassed them. */
export function approvalsText(r: ReleaseView): string {
  if (!('approvals' in r)) return '';
  const a = r.approvals;
  if (a.bypassedBy) return `bypassed by ${breakGlassText(a.bypassedBy)}`;
  if (a.required.length === 0) return 'none required';
  const policies = a.required.map((p) => `policy ${p.name} requires ${p.requiredApprovals}`).join(', ');
  return `${a.received} received (${policies})`;
}

/** The controller's latest word on the release's commit (never an older revision's), or that none came yet. */
export function syncText(r: ReleaseView): string {
  if (!r.sync.status && !r.sync.health) return r.commitSha ? 'no report for this commit yet' : 'not committed';
  return `${r.sync.status ?? '?'}/${r.sync.health ?? '?'}`;
}

export type PromotionView = Promotion;

const RELEASE_GOOD = new Set(['Healthy']);
const RELEASE_BAD = new Set(['Blocked', 'Failed', 'Rejected', 'Cancelled', 'Expired']);
const PROMOTION_BAD = new Set(['Failed', 'Expired', 'Cancelled']);

/** What a release waits for, in words, and whether it ended. */
export function observeRelease(r: ReleaseView): Observation {
  const line = `${r.status}${waitText(r) ? ` — ${waitText(r)}` : ''}`;
  if (RELEASE_GOOD.has(r.status)) return { line, end: { ok: true, message: `release ${r.id} is Healthy${at(r)}` } };
  if (RELEASE_BAD.has(r.status)) {
    return {
      line,
      end: { ok: false, message: `release ${r.id} ended ${r.status}: ${r.statusReason ?? 'no reason given'}` },
    };
  }
  return { line };
}

function waitText(r: ReleaseView): string {
  switch (r.status) {
    case 'Validating':
      return 'validating the rendered manifests';
    case 'PendingApproval': {
      const approvals = 'approvals' in r ? r.approvals : undefined;
      if (approvals?.bypassedBy) return `approvals bypassed by ${breakGlassText(approvals.bypassedBy)}`;
      const needed = approvals?.required.reduce((n, p) => Math.max(n, p.requiredApprovals), 0) ?? 0;
      const names = approvals?.required.map((p) => p.name).join(', ');
      const received = approvals?.received ?? 0;
      return `waiting for approval (${received} of ${needed || '?'} received${names ? `, policy ${names}` : ''})`;
    }
    case 'AwaitingDeploy':
      return `approved; waiting for a deploy (delivery release deploy ${r.id})`;
    case 'Queued':
      return r.waitingBehind ? `queued behind release ${r.waitingBehind}` : (r.statusReason ?? 'queued');
    case 'Deploying':
      // A commit waiting out a Git storage outage says so (and since when) in the reason; it clears once it lands.
      return r.statusReason ?? 'committing to the GitOps repository';
    case 'Syncing':
      return `commit ${short(r.commitSha)}; waiting for the controller${awaitedText('waitingFor' in r ? r.waitingFor : [])}`;
    default:
      return r.statusReason ?? '';
  }
}

/** `(web OutOfSync/Progressing, worker not reported)`: each Application still awaited, as the controller last said. */
function awaitedText(waiting: AwaitedApplication[] | undefined): string {
  if (!waiting?.length) return '';
  const each = waiting.map((a) => {
    const name = a.tenant ? `${a.tenant}/${a.service}` : a.service;
    return a.syncStatus || a.healthStatus
      ? `${name} ${a.syncStatus ?? '?'}/${a.healthStatus ?? '?'}`
      : `${name} not reported`;
  });
  return ` (${each.join(', ')})`;
}

function at(r: ReleaseView): string {
  return r.commitSha ? ` at ${short(r.commitSha)} (${r.tenant}/${r.environment})` : '';
}

function short(sha: string | null): string {
  return sha ? sha.slice(0, 12) : '-';
}

/** What a promotion waits for (every blocking cause), and whether it ended. */
export function observePromotion(p: PromotionView): Observation {
  const causes = (p.causes ?? []).map((c) => `${c.cause}: ${c.message}`);
  const detail =
    p.status === 'Blocked'
      ? `blocked by ${causes.join('; ')}`
      : p.status === 'Syncing'
        ? `commit ${short(p.commitSha)}; waiting for the controller`
        : (p.statusReason ?? '');
  const line = `${p.status}${detail ? ` — ${detail}` : ''}`;
  const name = `promotion ${p.id} (${p.sourceEnvironment ?? 'image'} -> ${p.targetEnvironment})`;
  if (p.status === 'Healthy')
    return { line, end: { ok: true, message: `${name} is Healthy at ${short(p.commitSha)}` } };
  if (PROMOTION_BAD.has(p.status)) {
    return { line, end: { ok: false, message: `${name} ended ${p.status}: ${p.statusReason ?? 'no reason given'}` } };
  }
  return { line };
}
