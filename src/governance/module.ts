import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { createGovernanceGate } from './governance-gate';
import type { GovernanceGate } from './governance-verdict';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** What releases, promotions, rollbacks and bulk image updates ask: freezes in force and the actor's break-glass. */
    governance: GovernanceGate;
  }
}

/** What src/governance plugs into the platform (src/runtime/domain-module.ts): the gate governed actions ask. */
export const governanceModule = {
  name: 'governance',
  tables: [],
  services: {
    governance: provide([], () => createGovernanceGate()),
  },
} satisfies DomainModule;
