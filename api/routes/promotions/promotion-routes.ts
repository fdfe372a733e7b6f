import type {
  PromotionListQueryRequest,
  PromotionRequestRequest,
  ReleaseApproveRequest,
  ReleaseCancelRequest,
} from '../../request-types.generated';
import type { PromotionService } from '../../../src/promotions/promotion-service';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

const PROJECT = '/api/v2/projects/:slug';
const ONE = '/api/v2/promotions/:id';

/** Promotions (/api/v2/projects/{slug}/promotion/request, /api/v2/promotions/{id}); docs/promotions.md. */
export function promotionRoutes(promotions: PromotionService, pageMax: number): RouteDef[] {
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
      summary: "Request a promotion of the source environment's versions to the target (Blocked while a cause holds)",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.promotions.create' },
      body: 'promotion-request',
      handler: async (ctx) => {
        created(
          ctx,
          await promotions.request(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf<PromotionRequestRequest>(ctx)),
        );
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
