import type {
  ReleaseApproveRequest,
  ReleaseCancelRequest,
  ReleaseCreateRequest,
  ReleaseListQueryRequest,
  ReleaseRejectRequest,
} from '../../request-types.generated';
import type { FoundRelease, ReleaseService } from '../../../src/releases/release-service';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, idempotencyKeyOf, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

const PROJECT = '/api/v2/projects/:slug';
const ONE = '/api/v2/releases/:id';

/** Releases (/api/v2/projects/{slug}/releases, /api/v2/releases/{id}); docs/releases.md. */
export function releaseRoutes(releases: ReleaseService, pageMax: number): RouteDef[] {
  const tag = 'releases';
  // By-id routes act on `projects.<slug>.releases.*`, the slug being the release's project. The read answers from the
  // release and project the access check read (one read of each a request: the release page and `--wait` poll it).
  const found = new WeakMap<AppContext, FoundRelease>();
  const scope = async (ctx: AppContext) => {
    const release = await releases.found(orgCallerOf(ctx), paramOf(ctx, 'id'));
    found.set(ctx, release);
    return { slug: release.project.slug };
  };
  const byId = (verb: string) => ({ kind: 'organization' as const, action: `projects.{slug}.releases.${verb}`, scope });
  const id = (ctx: AppContext) => paramOf(ctx, 'id');
  return [
    {
      method: 'post',
      path: `${PROJECT}/releases`,
      summary: 'Create a release (validated, gated by approval policies, deployed by commit); Idempotency-Key honoured',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.releases.create' },
      body: 'release-create',
      handler: async (ctx) => {
        const body = bodyOf<ReleaseCreateRequest>(ctx);
        const result = await releases.create(orgCallerOf(ctx), paramOf(ctx, 'slug'), body, idempotencyKeyOf(ctx));
        // 201 for a new release; a retry under the same Idempotency-Key gets the release it made, as 200.
        if (result.created) created(ctx, result.release);
        else ctx.body = result.release;
      },
    },
    {
      method: 'post',
      path: `${PROJECT}/releases/preview`,
      summary:
        'What creating the release would meet: validation per resource, policies, approvals, freezes, pin (changes nothing)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.releases.create' },
      body: 'release-create',
      handler: async (ctx) => {
        ctx.body = await releases.preview(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf<ReleaseCreateRequest>(ctx));
      },
    },
    {
      method: 'get',
      path: `${PROJECT}/releases`,
      summary: 'Releases of the project, newest first (filters: environment, tenantId, status, createdAfter/Before)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.releases.read' },
      query: 'release-list-query',
      handler: async (ctx) => {
        const q = queryOf(ctx) as ReleaseListQueryRequest;
        const filter = {
          environment: q.environment,
          tenantId: q.tenantId,
          status: q.status,
          createdAfter: q.createdAfter,
          createdBefore: q.createdBefore,
        };
        ctx.body = await releases.list(orgCallerOf(ctx), paramOf(ctx, 'slug'), filter, pageOf(ctx, pageMax));
      },
    },
    {
      method: 'get',
      path: ONE,
      summary: 'One release: status, validation results, policies, approvals, commit SHA, sync state, workflow link',
      tag,
      access: byId('read'),
      handler: async (ctx) => {
        ctx.body = await releases.view(found.get(ctx) ?? (await releases.found(orgCallerOf(ctx), id(ctx))));
      },
    },
    {
      method: 'get',
      path: `${ONE}/history`,
      summary:
        "The release workflow's history as a timeline, newest first in cursor pages (step, actor, time, result, commit SHA), and its audit entries",
      tag,
      access: byId('read'),
      query: 'workflow-history-query',
      handler: async (ctx) => {
        ctx.body = await releases.history(orgCallerOf(ctx), id(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: `${ONE}/approve`,
      summary: 'Approve a release waiting for approvals (no self-approval unless the policy allows it)',
      tag,
      access: byId('approve'),
      body: 'release-approve',
      handler: async (ctx) => {
        ctx.body = await releases.approve(orgCallerOf(ctx), id(ctx), bodyOf<ReleaseApproveRequest>(ctx).comment);
      },
    },
    {
      method: 'post',
      path: `${ONE}/reject`,
      summary: 'Reject a release waiting for approvals, with a comment (it ends Rejected)',
      tag,
      access: byId('approve'),
      body: 'release-reject',
      handler: async (ctx) => {
        ctx.body = await releases.reject(orgCallerOf(ctx), id(ctx), bodyOf<ReleaseRejectRequest>(ctx).comment);
      },
    },
    {
      method: 'post',
      path: `${ONE}/deploy`,
      summary: 'Deploy a validated, approved release of a project that does not auto-deploy (no body)',
      tag,
      access: byId('deploy'),
      handler: async (ctx) => {
        ctx.body = await releases.deploy(orgCallerOf(ctx), id(ctx));
      },
    },
    {
      method: 'post',
      path: `${ONE}/cancel`,
      summary: 'Cancel a release that has not been committed',
      tag,
      access: byId('cancel'),
      body: 'release-cancel',
      handler: async (ctx) => {
        ctx.body = await releases.cancel(orgCallerOf(ctx), id(ctx), bodyOf<ReleaseCancelRequest>(ctx).reason);
      },
    },
  ];
}
