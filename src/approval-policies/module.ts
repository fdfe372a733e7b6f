import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createApprovalPolicyService, type ApprovalPolicyService } from './approval-policy-service';
import { approvalPolicyHook } from './approval-policy-hook';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Approval policies (/api/v2/approval-policies); their chain hook gates direct deploys into covered environments. */
    approvalPolicies: ApprovalPolicyService;
  }
}

/** What src/approval-policies plugs into the platform (src/runtime/domain-module.ts). */
export const approvalPoliciesModule = {
  name: 'approval-policies',
  tables: ['approval_policies'],
  services: {
    approvalPolicies: provide(['authorization', 'projects', 'repositories', 'sources'], (deps) => {
      const { db, config } = deps;
      deps.authorization.addApprovalPolicy(
        approvalPolicyHook({ db, repositories: deps.repositories, publicUrl: config.publicUrl, sources: deps.sources }),
      );
      return createApprovalPolicyService({ ...owned(deps), projects: deps.projects.projects });
    }),
  },
  actions: {
    // Approval policies gate deployments: every member reads who must approve, admins configure them.
    'org.approval-policies.read': 'viewer',
    'org.approval-policies.create': 'admin',
    'org.approval-policies.update': 'admin',
    'org.approval-policies.delete': 'admin',
  },
} satisfies DomainModule;
