import type { ApprovalPolicyCreateRequest, PolicyListQueryRequest } from '../../request-types.generated';
import type { ApprovalPolicyService } from '../../../src/approval-policies/approval-policy-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

/** IAM center: approval policies of the organization's projects (/api/v2/approval-policies). */
export function approvalPolicyRoutes(policies: ApprovalPolicyService, pageMax: number): RouteDef[] {
  const one = '/api/v2/approval-policies/:id';
  const tag = 'approval-policies';
  return [
    {
      method: 'get',
      path: '/api/v2/approval-policies',
      summary: "Approval policies of the organization's projects, by name (filter: project)",
      tag,
      access: { kind: 'organization', action: 'org.approval-policies.read' },
      query: 'policy-list-query',
      handler: async (ctx) => {
        const { project } = queryOf(ctx) as PolicyListQueryRequest;
        ctx.body = await policies.list(orgCallerOf(ctx), { project }, pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: '/api/v2/approval-policies',
      summary: 'Create an approval policy: scope, required approvals, eligible approvers, self-approval, expiry',
      tag,
      access: { kind: 'organization', action: 'org.approval-policies.create' },
      body: 'approval-policy-create',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await policies.create(orgCallerOf(ctx), bodyOf<ApprovalPolicyCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: one,
      summary: 'One approval policy',
      tag,
      access: { kind: 'organization', action: 'org.approval-policies.read' },
      handler: async (ctx) => {
        ctx.body = await policies.get(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'put',
      path: one,
      summary: 'Replace an approval policy (it stays in its project)',
      tag,
      access: { kind: 'organization', action: 'org.approval-policies.update' },
      body: 'approval-policy-create',
      handler: async (ctx) => {
        const body = bodyOf<ApprovalPolicyCreateRequest>(ctx);
        ctx.body = await policies.replace(orgCallerOf(ctx), paramOf(ctx, 'id'), body);
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Delete an approval policy',
      tag,
      access: { kind: 'organization', action: 'org.approval-policies.delete' },
      handler: async (ctx) => {
        await policies.delete(orgCallerOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
  ];
}
