import type {
  PromotionListQueryRequest,
  PromotionRequestRequest,
  ReleaseApproveRequest,
  ReleaseCancelRequest,
} from '../../request-types.generated';
import type { PromotionService } from '../../../src/promotions/promotion-service';
import type { RolloutPlanInput } from '../../../src/rollouts/rollout-plan';
import type { RolloutService } from '../../../src/rollouts/rollout-service';
import { rolloutLinks } from '../../../src/rollouts/rollout-view';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

const PROJECT = '/api/v2/projects/:slug';
const ONE = '/api/v2/promotions/:id';

/** The body, its plan (when it gives one) as the rollout service takes it: the schema checked its shape. */
const promotionBody = (ctx: AppContext) =>
  bodyOf<PromotionRequestRequest>(ctx) as PromotionRequestRequest & { plan?: RolloutPlanInput };

/** Promotions (/api/v2/projects/{slug}/promotion/request, /api/v2/promotions/{id}); docs/promotions.md. */
export function promotionRoutes(promotions: PromotionService, rollouts: RolloutService, pageMax: number): RouteDef[] {
  const tag = 'promotions';
  // By-id routes act on `projects.<slug>.promotions.*`, the slug being the promotion's project.
  const scope = (ctx: AppContext) => promotions.actionScope(orgCallerOf(ctx), paramOf(ctx, 'id'));
  const byId = (verb: string) => ({
    kind: 'organization' as const,
    action: `projects.{slug}.promotions.${verb}`,
    scope,
  });
  const id = (ctx: AppContext) => paramOf(ctx, 'id');
  return [
    {
      method: 'post',
      path: `${PROJECT}/promotion/request`,
      summary:
        "Request a promotion of the source environment's versions to the target (Blocked while a cause holds); a target with a rollout plan starts a rollout in its waves",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.promotions.create' },
      body: 'promotion-request',
      handler: async (ctx) => {
        const [caller, slug, body] = [orgCallerOf(ctx), paramOf(ctx, 'slug'), promotionBody(ctx)];
        // An environment with a rollout plan: a rollout in its waves (docs/rollouts.md), not every tenant at once.
        const { rollout, skippedBy } = await rollouts.forPromotion(caller, slug, body);
        if (!rollout) return created(ctx, await promotions.request(caller, slug, body, skippedBy));
        const links = rolloutLinks(rollout.id);
        ctx.set('Location', links.rollout);
        created(ctx, { rolloutId: rollout.id, rollout, links });
      },
    },
    {
      method: 'post',
      path: `${PROJECT}/promotion/preview`,
      summary:
        "What a promotion request would move and, over the target's rollout plan, each wave and what it waits for",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.promotions.read' },
      body: 'promotion-request',
      handler: async (ctx) => {
        ctx.body = await rollouts.previewPromotion(orgCallerOf(ctx), paramOf(ctx, 'slug'), promotionBody(ctx));
      },
    },
    {
      method: 'get',
      path: `${PROJECT}/promotions`,
      summary: 'Promotions of the project, newest first (filters: status, targetEnvironment)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.promotions.read' },
      query: 'promotion-list-query',
      handler: async (ctx) => {
        const q = queryOf(ctx) as PromotionListQueryRequest;
        const filter = { status: q.status, targetEnvironment: q.targetEnvironment };
        ctx.body = await promotions.list(orgCallerOf(ctx), paramOf(ctx, 'slug'), filter, pageOf(ctx, pageMax));
      },
    },
    {
      method: 'get',
      path: ONE,
      summary: 'One promotion: what moves, status, every blocking cause, approvals, commit SHA, sync per tenant',
      tag,
      access: byId('read'),
      handler: async (ctx) => {
        ctx.body = await promotions.get(orgCallerOf(ctx), id(ctx));
      },
    },
    {
      method: 'get',
      path: `${ONE}/history`,
      summary: "The promotion workflow's history as a timeline, newest first in cursor pages, beside its audit entries",
      tag,
      access: byId('read'),
      query: 'workflow-history-query',
      handler: async (ctx) => {
        ctx.body = await promotions.history(orgCallerOf(ctx), id(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: `${ONE}/approve`,
      summary: 'Approve a promotion (the approval policies covering its target; no self-approval unless allowed)',
      tag,
      access: byId('approve'),
      body: 'release-approve',
      handler: async (ctx) => {
        ctx.body = await promotions.approve(orgCallerOf(ctx), id(ctx), bodyOf<ReleaseApproveRequest>(ctx).comment);
      },
    },
    {
      method: 'post',
      path: `${ONE}/cancel`,
      summary: 'Cancel a promotion that has not been executed',
      tag,
      access: byId('cancel'),
      body: 'release-cancel',
      handler: async (ctx) => {
        ctx.body = await promotions.cancel(orgCallerOf(ctx), id(ctx), bodyOf<ReleaseCancelRequest>(ctx).reason);
      },
    },
  ];
}
