import { findOrganizationById } from '../orgs/org-repository';
import type { Queryable } from '../db/knex';
import { Forbidden, NotFound } from '../errors';
import type { Plan } from '../orgs/org-repository';
import { FEATURE_LABELS, FEATURE_PLANS, PLAN_LABELS, planIncludes, type Feature } from './plan-features';

export interface FeatureSet {
  plan: Plan;
  features: Record<Feature, { enabled: boolean; requiredPlan: Plan }>;
}

/** The one gating helper of plan tiers: routes of gated features call `require` before doing anything. */
export interface PlanGate {
  planOf(organizationId: string): Promise<Plan>;
  features(organizationId: string): Promise<FeatureSet>;
  /** Throws 403 naming the plan needed, e.g. "Service accounts require the Enterprise plan". */
  require(organizationId: string, feature: Feature): Promise<void>;
}

export function createPlanGate(db: Queryable): PlanGate {
  async function planOf(organizationId: string): Promise<Plan> {
    const org = await findOrganizationById(db, organizationId);
    if (!org) throw new NotFound('organization not found');
    return org.plan;
  }
  return {
    planOf,
    async features(organizationId) {
      const plan = await planOf(organizationId);
      const features = Object.fromEntries(
        (Object.keys(FEATURE_PLANS) as Feature[]).map((f) => [
          f,
          { enabled: planIncludes(plan, f), requiredPlan: FEATURE_PLANS[f] },
        ]),
      ) as FeatureSet['features'];
      return { plan, features };
    },
    async require(organizationId, feature) {
      const plan = await planOf(organizationId);
      if (!planIncludes(plan, feature)) {
        throw new Forbidden(`${FEATURE_LABELS[feature]} require the ${PLAN_LABELS[FEATURE_PLANS[feature]]} plan`);
      }
    },
  };
}
