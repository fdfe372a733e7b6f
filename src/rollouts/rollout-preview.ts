import type { ApprovalPolicySnapshot } from '../approval-policies/approval-decision';
import type { ActiveFreeze } from '../freezes/freeze-evaluation';
import type { RolloutWave } from './rollout-workflow-contract';

/** A duration in its largest whole unit: `90s`, `10m`, `2h`, `3d`. */
export function durationText(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'm'],
  ];
  const unit = units.find(([size]) => seconds % size === 0);
  return unit ? `${seconds / unit[0]}${unit[1]}` : `${seconds}s`;
}

function approvalText(policy: ApprovalPolicySnapshot): string {
  const { roles, teams, users } = policy.eligibleApprovers;
  const who = [
    ...roles.map((r) => `role ${r}`),
    ...teams.map((t) => `team ${t}`),
    ...(users.length > 0 ? [`${users.length} named user(s)`] : []),
  ];
  const self = policy.allowSelfApproval ? '' : ', not the requester';
  return `${policy.requiredApprovals} approval(s) by ${who.join(' or ') || 'nobody eligible'}${self} (${policy.name})`;
}

/**
 * The waves a request would follow, as a preview shows them: each wave's tenants, soak, checks and approval gate,
 * and what it waits for in order (the previous wave verified, a freeze in force now, its gate, its soak, its checks).
 * A freeze in force is named on the first wave with tenants: the rollout's first promotion waits for its end.
 */
export function wavePreviews(waves: readonly RolloutWave[], freezes: readonly ActiveFreeze[]) {
  const first = waves.findIndex((w) => w.tenants.length > 0);
  return waves.map((wave, i) => {
    const previous = waves[i - 1];
    const waitsFor = [
      ...(previous ? [`wave ${previous.name} verified`] : []),
      ...(i === first ? freezes.map((f) => `freeze ${f.freeze.name} until ${f.occurrence.end.toISOString()}`) : []),
      ...wave.gatePolicies.map((p) => `approval: ${approvalText(p)}`),
      ...(wave.soakSeconds > 0 ? [`soak ${durationText(wave.soakSeconds)}`] : []),
      ...wave.checks.map((c) => `verification ${c.name}: ${c.count} measurements, at most ${c.failureLimit} failed`),
    ];
    return {
      name: wave.name,
      selection: wave.selection,
      tenants: wave.tenants,
      soakSeconds: wave.soakSeconds,
      approvalGate: wave.approvalGate,
      checks: wave.checks.map((c) => ({ kind: c.kind, name: c.name, count: c.count, failureLimit: c.failureLimit })),
      waitsFor: wave.tenants.length === 0 ? ['nothing: no tenant of this wave moves (skipped)'] : waitsFor,
    };
  });
}

export type WavePreview = ReturnType<typeof wavePreviews>[number];
