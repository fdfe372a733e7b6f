import type {
  EnvironmentCreateRequest,
  EnvironmentOrderRequest,
  EnvironmentUpdateRequest,
  TenantCreateRequest,
  TenantUpdateRequest,
} from '../../request-types.generated';
import type { EnvironmentService } from '../../../src/platform-config/environment-service';
import type { TenantService } from '../../../src/platform-config/tenant-service';
import type { TargetRemoval } from '../../../src/environment-removal/target-removal';
import type { PlanGate } from '../../../src/plans/plan-gate';
import type { RouteDef } from '../../route-def';
import type { AppContext } from '../../context';
import { bodyOf, cancelOf, created, noContent, orgCallerOf, pageOf, paramOf } from '../../request';

/** A catalogue entry's removal: 204 when no project used it, else 200 with each project's removal commit. */
function removed(ctx: AppContext, outcome: { projects: { project: string; commit: string | null }[] }) {
  if (outcome.projects.length === 0) noContent(ctx);
  else ctx.body = outcome;
}

/** Platform configuration: features of the plan, the environment catalogue and the tenant catalogue. */
export function platformConfigRoutes(
  deps: {
    plans: PlanGate;
    environments: EnvironmentService;
    tenants: TenantService;
    removal: Pick<TargetRemoval, 'catalogueTenant' | 'catalogueEnvironment'>;
  },
  pageMax: number,
): RouteDef[] {
  const { plans, environments, tenants, removal } = deps;
  const env = '/api/v2/org/environments/:environment';
  const tenant = '/api/v2/org/tenants/:tenantId';
  return [
    {
      method: 'get',
      path: '/api/v2/features',
      summary: "The organization's plan and which gated features it may use (with the plan each needs)",
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.features.read' },
      handler: async (ctx) => {
        ctx.body = await plans.features(orgCallerOf(ctx).organizationId);
      },
    },
    {
      method: 'get',
      path: '/api/v2/org/environments',
      summary: 'The environment catalogue in order (at most 50 entries, one page)',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.environments.read' },
      handler: async (ctx) => {
        ctx.body = { items: await environments.list(orgCallerOf(ctx)), nextCursor: null };
      },
    },
    {
      method: 'post',
      path: '/api/v2/org/environments',
      summary: 'Add an environment at the end or at a position',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.environments.create' },
      body: 'environment-create',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await environments.create(orgCallerOf(ctx), bodyOf<EnvironmentCreateRequest>(ctx))),
    },
    {
      method: 'put',
      path: '/api/v2/org/environments/order',
      summary: 'Reorder the catalogue: every environment slug once, in the new order',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.environments.reorder' },
      body: 'environment-order',
      handler: async (ctx) => {
        const items = await environments.reorder(orgCallerOf(ctx), bodyOf<EnvironmentOrderRequest>(ctx).order);
        ctx.body = { items, nextCursor: null };
      },
    },
    {
      method: 'get',
      path: env,
      summary: 'One environment by slug',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.environments.read' },
      handler: async (ctx) => {
        ctx.body = await environments.get(orgCallerOf(ctx), paramOf(ctx, 'environment'));
      },
    },
    {
      method: 'patch',
      path: env,
      summary: 'Rename an environment or change its production flag',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.environments.update' },
      body: 'environment-update',
      handler: async (ctx) => {
        const changes = bodyOf<EnvironmentUpdateRequest>(ctx);
        ctx.body = await environments.update(orgCallerOf(ctx), paramOf(ctx, 'environment'), changes);
      },
    },
    {
      method: 'delete',
      path: env,
      summary:
        'Remove an environment from the catalogue and every project using it (409 naming the uses unless ?cancel=true)',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.environments.delete' },
      query: 'target-remove-query',
      handler: async (ctx) => {
        const slug = paramOf(ctx, 'environment');
        removed(ctx, await removal.catalogueEnvironment(orgCallerOf(ctx), slug, cancelOf(ctx)));
      },
    },
    {
      method: 'get',
      path: '/api/v2/org/tenants',
      summary: 'The tenant catalogue, by slug',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.tenants.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await tenants.list(orgCallerOf(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: '/api/v2/org/tenants',
      summary: 'Add a tenant to the catalogue',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.tenants.create' },
      body: 'tenant-create',
      status: 201,
      handler: async (ctx) => created(ctx, await tenants.create(orgCallerOf(ctx), bodyOf<TenantCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: tenant,
      summary: 'One tenant',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.tenants.read' },
      handler: async (ctx) => {
        ctx.body = await tenants.get(orgCallerOf(ctx), paramOf(ctx, 'tenantId'));
      },
    },
    {
      method: 'patch',
      path: tenant,
      summary: "Change a tenant's name or description",
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.tenants.update' },
      body: 'tenant-update',
      handler: async (ctx) => {
        ctx.body = await tenants.update(orgCallerOf(ctx), paramOf(ctx, 'tenantId'), bodyOf<TenantUpdateRequest>(ctx));
      },
    },
    {
      method: 'delete',
      path: tenant,
      summary:
        'Remove a tenant from the catalogue and every project having it (409 naming the uses unless ?cancel=true)',
      tag: 'platform-config',
      access: { kind: 'organization', action: 'org.tenants.delete' },
      query: 'target-remove-query',
      handler: async (ctx) => {
        removed(ctx, await removal.catalogueTenant(orgCallerOf(ctx), paramOf(ctx, 'tenantId'), cancelOf(ctx)));
      },
    },
  ];
}
