import type { RolloutPlanPutRequest } from '../../request-types.generated';
import type { RolloutPlanService } from '../../../src/rollouts/rollout-plan-service';
import type { RolloutPlanInput } from '../../../src/rollouts/rollout-plan';
import type { RouteDef } from '../../route-def';
import { bodyOf, noContent, orgCallerOf, paramOf } from '../../request';

const PROJECT = '/api/v2/projects/:slug';

/** Rollout plans (docs/rollouts.md): one per project and environment, managed like the environment's settings. */
export function rolloutPlanRoutes(plans: RolloutPlanService): RouteDef[] {
  const tag = 'rollouts';
  const one = `${PROJECT}/environments/:environment/rollout-plan`;
  const read = { kind: 'organization' as const, action: 'projects.{slug}.rollout-plans.read' };
  const manage = { kind: 'organization' as const, action: 'projects.{slug}.rollout-plans.manage' };
  return [
    {
      method: 'get',
      path: `${PROJECT}/rollout-plans`,
      summary: "The project's rollout plans, one per environment that has one",
      tag,
      access: read,
      handler: async (ctx) => {
        ctx.body = await plans.list(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'get',
      path: one,
      summary: "An environment's rollout plan: its waves of tenants, soak times, checks and approval gates",
      tag,
      access: read,
      handler: async (ctx) => {
        ctx.body = await plans.get(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'environment'));
      },
    },
    {
      method: 'put',
      path: one,
      summary: "Set an environment's rollout plan (422 naming every problem: unknown tenants, policies, checks)",
      tag,
      access: manage,
      body: 'rollout-plan-put',
      handler: async (ctx) => {
        const body = bodyOf<RolloutPlanPutRequest>(ctx) as RolloutPlanInput;
        const { plan } = await plans.put(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'environment'), body);
        ctx.body = plan;
      },
    },
    {
      method: 'delete',
      path: one,
      summary: "Remove an environment's rollout plan: promotions into it move every tenant in one commit again",
      tag,
      access: manage,
      handler: async (ctx) => {
        await plans.remove(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'environment'));
        noContent(ctx);
      },
    },
  ];
}
