import type { RolloutActionRequest, RolloutApproveRequest, RolloutStartRequest } from '../../request-types.generated';
import type { RolloutAction, RolloutService } from '../../../src/rollouts/rollout-service';
import type { RolloutPlanInput } from '../../../src/rollouts/rollout-plan';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, orgCallerOf, paramOf } from '../../request';

const ONE = '/api/v2/rollouts/:id';

/** Rollouts (docs/rollouts.md): start one over an environment's plan, read it, steer it. */
export function rolloutRoutes(rollouts: RolloutService): RouteDef[] {
  const tag = 'rollouts';
  const scope = (ctx: AppContext) => rollouts.actionScope(orgCallerOf(ctx), paramOf(ctx, 'id'));
  const byId = (verb: string) => ({ kind: 'organization' as const, action: `projects.{slug}.rollouts.${verb}`, scope });
  const steer = (action: RolloutAction, summary: string): RouteDef => ({
    method: 'post',
    path: `${ONE}/${action}`,
    summary,
    tag,
    access: byId('manage'),
    body: 'rollout-action',
    handler: async (ctx) => {
      const { reason } = bodyOf<RolloutActionRequest>(ctx);
      ctx.body = await rollouts.act(orgCallerOf(ctx), paramOf(ctx, 'id'), action, reason);
    },
  });
  return [
    {
      method: 'post',
      path: '/api/v2/projects/:slug/rollouts',
      summary: "Roll the source environment's versions out to the target in the waves of its plan (or the one given)",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.promotions.create' },
      body: 'rollout-start',
      status: 201,
      handler: async (ctx) => {
        const body = bodyOf<RolloutStartRequest>(ctx) as RolloutStartRequest & { plan?: RolloutPlanInput };
        created(ctx, await rollouts.start(orgCallerOf(ctx), paramOf(ctx, 'slug'), body));
      },
    },
    {
      method: 'get',
      path: '/api/v2/projects/:slug/rollouts',
      summary: 'Rollouts of the project, newest first (the latest 100)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.rollouts.read' },
      handler: async (ctx) => {
        ctx.body = await rollouts.list(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'get',
      path: ONE,
      summary: 'One rollout: each wave with its tenants, state, promotions and verification measurements',
      tag,
      access: byId('read'),
      handler: async (ctx) => {
        ctx.body = await rollouts.get(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    steer('pause', 'Pause a rollout before its next step (audited with the reason)'),
    steer('resume', 'Resume a paused or halted rollout (a rolled-back one starts again from its first wave)'),
    steer('abort', 'Abort a rollout at its next step (a wave promotion in flight ends first)'),
    steer('skip-soak', "Skip the current wave's soak and go on to its verification"),
    {
      method: 'post',
      path: `${ONE}/approve`,
      summary: "Approve the current wave's approval gate",
      tag,
      access: byId('approve'),
      body: 'rollout-approve',
      handler: async (ctx) => {
        const { comment } = bodyOf<RolloutApproveRequest>(ctx);
        ctx.body = await rollouts.approve(orgCallerOf(ctx), paramOf(ctx, 'id'), comment);
      },
    },
  ];
}
