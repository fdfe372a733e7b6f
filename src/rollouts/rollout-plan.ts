import type { VerificationCheck } from '../verification/check-spec';
import { ConditionError, parseCondition } from '../verification/success-condition';

/** Which tenants a wave takes: named ones, those whose labels match, or a share of the tenants still left. */
export type WaveSelection =
  | { tenants: string[]; selector?: never; percent?: never }
  | { selector: { matchLabels: Record<string, string> }; tenants?: never; percent?: never }
  | { percent: number; tenants?: never; selector?: never };

/**
 * One wave of a rollout plan. `approvalGate`: false (none), true (one approval by a member other than the requester)
 * or the name of an approval policy of the project (its eligible approvers and quorum).
 */
export type PlanWave = WaveSelection & {
  name: string;
  soakSeconds: number;
  checks: VerificationCheck[];
  approvalGate: boolean | string;
};

export interface RolloutPlanInput {
  waves: (WaveSelection & {
    name?: string;
    soakSeconds?: number;
    checks?: VerificationCheck[];
    approvalGate?: boolean | string;
  })[];
  rollbackOnHalt?: boolean;
  liftPinsWhenVerifiedUpstream?: boolean;
}

export interface RolloutPlan {
  environment: string;
  waves: PlanWave[];
  rollbackOnHalt: boolean;
  liftPinsWhenVerifiedUpstream: boolean;
}

/** The defaults a stored plan fills in: wave names `wave-<n>`, no soak, no checks, no gate. */
export function normalizePlan(input: RolloutPlanInput): Omit<RolloutPlan, 'environment'> {
  return {
    waves: input.waves.map((wave, i) => ({
      ...wave,
      name: wave.name ?? `wave-${i + 1}`,
      soakSeconds: wave.soakSeconds ?? 0,
      checks: wave.checks ?? [],
      approvalGate: wave.approvalGate ?? false,
    })),
    rollbackOnHalt: input.rollbackOnHalt ?? false,
    liftPinsWhenVerifiedUpstream: input.liftPinsWhenVerifiedUpstream ?? false,
  };
}

/**
 * Every reason a plan cannot be followed, in words (the service answers 422 with them). `tenantSlugs` are the
 * project's tenants, `policyNames` its approval policies.
 */
/** What a plan may name: the project's tenants, its approval policies, the organization's metric sources. */
export interface PlanReferences {
  tenants: readonly string[];
  policies: readonly string[];
  metricSources: readonly string[];
}

export function planProblems(plan: Omit<RolloutPlan, 'environment'>, known: PlanReferences): string[] {
  const { tenants: tenantSlugs, policies: policyNames } = known;
  const problems: string[] = [];
  const named = new Map<string, string>();
  const waveNames = new Set<string>();
  plan.waves.forEach((wave, i) => {
    const where = `wave ${i + 1} (${wave.name})`;
    if (waveNames.has(wave.name)) problems.push(`${where}: another wave has this name`);
    waveNames.add(wave.name);
    const ways = [wave.tenants, wave.selector, wave.percent].filter((w) => w !== undefined).length;
    if (ways !== 1) problems.push(`${where}: select tenants by exactly one of tenants, selector or percent`);
    for (const tenant of wave.tenants ?? []) {
      if (!tenantSlugs.includes(tenant)) problems.push(`${where}: tenant ${tenant} is not in this project`);
      const earlier = named.get(tenant);
      if (earlier !== undefined) problems.push(`${where}: tenant ${tenant} is already in ${earlier}`);
      named.set(tenant, wave.name);
    }
    if (wave.selector && Object.keys(wave.selector.matchLabels).length === 0) {
      problems.push(`${where}: the selector names no label`);
    }
    if (typeof wave.approvalGate === 'string' && !policyNames.includes(wave.approvalGate)) {
      problems.push(`${where}: approval policy ${wave.approvalGate} does not exist`);
    }
    problems.push(
      ...wave.checks.flatMap((check) => checkProblems(check, known.metricSources).map((p) => `${where}: ${p}`)),
    );
    const checkNames = wave.checks.map((c) => c.name);
    if (new Set(checkNames).size !== checkNames.length) problems.push(`${where}: two checks share a name`);
  });
  return problems;
}

function checkProblems(check: VerificationCheck, metricSources: readonly string[]): string[] {
  const problems: string[] = [];
  if (check.kind === 'prometheus' && !metricSources.includes(check.metricSource)) {
    problems.push(`check ${check.name}: no metric source named ${check.metricSource} (POST /api/v2/metric-sources)`);
  }
  if (check.failureLimit >= check.count) {
    problems.push(`check ${check.name}: failureLimit must be below count (else it could never fail)`);
  }
  if (check.kind === 'prometheus') {
    try {
      parseCondition(check.successCondition);
    } catch (err) {
      if (!(err instanceof ConditionError)) throw err;
      problems.push(`check ${check.name}: ${err.message}`);
    }
  }
  if (check.kind === 'http' && check.expectValue !== undefined && check.jsonField === undefined) {
    problems.push(`check ${check.name}: expectValue needs jsonField`);
  }
  return problems;
}

/** Whether an environment's plan takes any of the pairs (an image update then moves them in its waves). */
export const planCovers = (plans: { environment: string }[], pairs: { environment: string }[]): boolean =>
  pairs.some((p) => plans.some((plan) => plan.environment === p.environment));
