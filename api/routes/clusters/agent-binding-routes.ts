import type { AgentBindingCreateRequest } from '../../request-types.generated';
import type { AgentBindingService } from '../../../src/clusters/agent-binding-service';
import type { TargetRemoval } from '../../../src/environment-removal/target-removal';
import type { RouteDef } from '../../route-def';
import { bodyOf, cancelOf, created, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

/** Agent bindings: which project, tenants and environments a cluster serves (/api/v2/agent-bindings). */
export function agentBindingRoutes(bindings: AgentBindingService, removal: TargetRemoval, pageMax: number): RouteDef[] {
  const tag = 'clusters';
  const one = '/api/v2/agent-bindings/:bindingId';
  return [
    {
      method: 'get',
      path: '/api/v2/agent-bindings',
      summary: 'Agent bindings of the organization (optionally of one cluster)',
      tag,
      access: { kind: 'organization', action: 'org.agent-bindings.read' },
      query: 'agent-binding-list-query',
      handler: async (ctx) => {
        ctx.body = await bindings.list(orgCallerOf(ctx), pageOf(ctx, pageMax), queryOf(ctx).clusterId);
      },
    },
    {
      method: 'post',
      path: '/api/v2/agent-bindings',
      summary: "Bind a cluster to a project's tenants and environments; their Kubernetes version follows the agent",
      tag,
      access: { kind: 'organization', action: 'org.agent-bindings.create' },
      body: 'agent-binding-create',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await bindings.create(orgCallerOf(ctx), bodyOf<AgentBindingCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: one,
      summary: 'One agent binding with its tenants and environments',
      tag,
      access: { kind: 'organization', action: 'org.agent-bindings.read' },
      handler: async (ctx) => {
        ctx.body = await bindings.get(orgCallerOf(ctx), paramOf(ctx, 'bindingId'));
      },
    },
    {
      method: 'delete',
      path: one,
      summary:
        "Remove an agent binding (409 naming releases and promotions into its pairs unless ?cancel=true) and commit the Argo CD files' new destinations",
      tag,
      access: { kind: 'organization', action: 'org.agent-bindings.delete' },
      query: 'target-remove-query',
      handler: async (ctx) => {
        ctx.body = await removal.binding(orgCallerOf(ctx), paramOf(ctx, 'bindingId'), cancelOf(ctx));
      },
    },
  ];
}
