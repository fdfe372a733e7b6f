import type { DomainModule } from '../runtime/domain-module';
import { policyRoutes } from '../../api/routes/policies/policy-routes';

/** What src/policies plugs into the platform (src/runtime/domain-module.ts). */
export const policiesModule = {
  name: 'policies',
  tables: ['policies'],
  routes: (services) => policyRoutes(services.policies, services.config.orgs.pageMax),
} satisfies DomainModule;
