import type { ApprovalPolicyCreateRequest } from '../../request-types.generated';
import type { ApprovalPolicyService } from '../../../src/approval-policies/approval-policy-service';
import type { RouteDef } from '../../route-def';
import { bodyOf } from '../../request';
import { projectPolicyRoutes } from '../policies/project-policy-routes';

/**
 * IAM center: approval policies of the organization's projects (/api/v2/approval-policies): scope, required
 * approvals, eligible approvers, self-approval and expiry.
 */
export function approvalPolicyRoutes(policies: ApprovalPolicyService, pageMax: number): RouteDef[] {
  return projectPolicyRoutes(
    policies,
    {
      path: '/api/v2/approval-policies',
      actionPrefix: 'org.approval-policies',
      tag: 'approval-policies',
      label: 'approval policy',
      plural: 'Approval policies',
      bodySchema: 'approval-policy-create',
      body: (ctx) => bodyOf<ApprovalPolicyCreateRequest>(ctx),
    },
    pageMax,
  );
}
