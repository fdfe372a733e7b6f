import type { OrganizationPlanUpdateRequest } from '../../request-types.generated';
import { setPlan, type OperatorDeps } from '../../../src/admin/operator-commands';
import type { RouteDef } from '../../route-def';
import { auditActor } from '../../../src/iam/caller';
import { bodyOf, callerOf, paramOf } from '../../request';

/** Plan tiers are set by the operators of the instance: the CLI (`npm run admin set-plan`) or this route. */
export function planAdminRoutes(deps: OperatorDeps): RouteDef[] {
  return [
    {
      method: 'put',
      path: '/api/v2/admin/organizations/:slug/plan',
      summary: "Set an organization's plan (free, pro, enterprise); instance administrators only",
      tag: 'admin',
      access: { kind: 'instance-admin', action: 'instance.organizations.plan.update' },
      body: 'organization-plan-update',
      handler: async (ctx) => {
        const input = { org: paramOf(ctx, 'slug'), plan: bodyOf<OrganizationPlanUpdateRequest>(ctx).plan };
        const org = await setPlan(deps, input, auditActor(callerOf(ctx)));
        ctx.body = { id: org.id, slug: org.slug, name: org.name, plan: org.plan };
      },
    },
  ];
}
