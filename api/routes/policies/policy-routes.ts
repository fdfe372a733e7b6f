import type { PolicyCreateRequest, PolicyEvaluateRequest, PolicyListQueryRequest } from '../../request-types.generated';
import type { PolicyBody, PolicyService } from '../../../src/policies/policy-service';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

/** The schema's oneOf by `type` is exactly the StoredRule union; the generated type spells it less precisely. */
const policyBody = (ctx: AppContext) => bodyOf<PolicyCreateRequest>(ctx) as unknown as PolicyBody;

/** Policies: manifest rules of projects (/api/v2/policies) and their evaluation without committing. */
export function policyRoutes(policies: PolicyService, pageMax: number): RouteDef[] {
  const one = '/api/v2/policies/:id';
  const tag = 'policies';
  return [
    {
      method: 'get',
      path: '/api/v2/policies',
      summary: "Policies of the organization's projects, by name (filter: project)",
      tag,
      access: { kind: 'organization', action: 'org.policies.read' },
      query: 'policy-list-query',
      handler: async (ctx) => {
        const { project } = queryOf(ctx) as PolicyListQueryRequest;
        ctx.body = await policies.list(orgCallerOf(ctx), { project }, pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: '/api/v2/policies',
      summary: 'Create a policy of a project (rules with mode enforce or audit)',
      tag,
      access: { kind: 'organization', action: 'org.policies.create' },
      body: 'policy-create',
      status: 201,
      handler: async (ctx) => created(ctx, await policies.create(orgCallerOf(ctx), policyBody(ctx))),
    },
    {
      method: 'post',
      path: '/api/v2/policies/evaluate',
      summary: 'Which rules of the project policies pass or fail for a manifest set or a rendered target (no commit)',
      tag,
      access: { kind: 'organization', action: 'org.policies.evaluate' },
      body: 'policy-evaluate',
      handler: async (ctx) => {
        ctx.body = await policies.evaluate(orgCallerOf(ctx), bodyOf<PolicyEvaluateRequest>(ctx));
      },
    },
    {
      method: 'get',
      path: one,
      summary: "One policy with its project's validation settings (read-only here)",
      tag,
      access: { kind: 'organization', action: 'org.policies.read' },
      handler: async (ctx) => {
        ctx.body = await policies.get(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'put',
      path: one,
      summary: 'Replace a policy (it stays in its project)',
      tag,
      access: { kind: 'organization', action: 'org.policies.update' },
      body: 'policy-create',
      handler: async (ctx) => {
        ctx.body = await policies.replace(orgCallerOf(ctx), paramOf(ctx, 'id'), policyBody(ctx));
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Delete a policy',
      tag,
      access: { kind: 'organization', action: 'org.policies.delete' },
      handler: async (ctx) => {
        await policies.delete(orgCallerOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
  ];
}
