import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { createPlanGate, type PlanGate } from './plan-gate';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Plan tiers: `plans.require(orgId, feature)` answers 403 naming the plan needed. */
    plans: PlanGate;
  }
}

/** What src/plans plugs into the platform (src/runtime/domain-module.ts). */
export const plansModule = {
  name: 'plans',
  tables: [],
  services: {
    plans: provide([], (core) => createPlanGate(core.db)),
  },
} satisfies DomainModule;
