import { enabledApprovalPoliciesOf } from '../approval-policies/approval-policy-repository';
import type { Queryable } from '../db/knex';
import { findMetricSourceByName } from '../verification/metric-source-repository';
import type { PlanReferences, RolloutPlan } from './rollout-plan';

/**
 * What a plan of the project may name, as planProblems checks it: the tenants given, the project's enabled approval
 * policies, and those of the metric sources its Prometheus checks name that exist in the organization.
 */
export async function planReferences(
  db: Queryable,
  organizationId: string,
  projectId: string,
  plan: Pick<RolloutPlan, 'waves'>,
  tenants: readonly string[],
): Promise<PlanReferences> {
  const policies = (await enabledApprovalPoliciesOf(db, organizationId, projectId)).map((p) => p.name);
  const named = new Set(
    plan.waves.flatMap((w) => w.checks.flatMap((c) => (c.kind === 'prometheus' ? [c.metricSource] : []))),
  );
  const metricSources: string[] = [];
  for (const name of named) if (await findMetricSourceByName(db, organizationId, name)) metricSources.push(name);
  return { tenants, policies, metricSources };
}
