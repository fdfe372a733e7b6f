import type { DomainModule } from '../runtime/domain-module';
import { approvalPolicyRoutes } from '../../api/routes/approval-policies/approval-policy-routes';

/** What src/approval-policies plugs into the platform (src/runtime/domain-module.ts). */
export const approvalPoliciesModule = {
  name: 'approval-policies',
  tables: ['approval_policies'],
  routes: (services) => approvalPolicyRoutes(services.approvalPolicies, services.config.orgs.pageMax),
} satisfies DomainModule;
