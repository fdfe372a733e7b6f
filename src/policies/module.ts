import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { approvalRequirement } from '../approval-policies/approval-gate';
import type { ReleasePolicyPorts } from '../releases/release-policy-ports';
import { releasePolicyCheck } from './policy-check';
import { createPolicyService, type PolicyService } from './policy-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Manifest policies of projects (/api/v2/policies) and their evaluation. */
    policies: PolicyService;
    /** The manifest policies and approval policies a release consults (activities/release.ts). */
    releasePolicies: ReleasePolicyPorts;
  }
}

/** What src/policies plugs into the platform (src/runtime/domain-module.ts). */
export const policiesModule = {
  name: 'policies',
  tables: ['policies'],
  services: {
    policies: provide(['projects', 'sources'], (deps) =>
      createPolicyService({
        ...owned(deps),
        projects: deps.projects.projects,
        publicUrl: deps.config.publicUrl,
        sources: deps.sources,
      }),
    ),
    releasePolicies: provide([], () => ({
      check: releasePolicyCheck,
      approvalPolicies: async (trx, target) => (await approvalRequirement(trx, target.organizationId, target)).policies,
    })),
  },
  actions: {
    // Policies (/api/v2/policies): the project slug is in the body, so these are organization actions (project grants
    // do not lift them). Evaluating reads only.
    'org.policies.read': 'viewer',
    'org.policies.evaluate': 'viewer',
    'org.policies.create': 'admin',
    'org.policies.update': 'admin',
    'org.policies.delete': 'admin',
  },
} satisfies DomainModule;
