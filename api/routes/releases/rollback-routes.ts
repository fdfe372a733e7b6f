import type { RollbackRequest } from '../../request-types.generated';
import type { PinService } from '../../../src/pins/pin-service';
import type { ReleaseService } from '../../../src/releases/release-service';
import type { AppContext } from '../../context';
import type { ProjectTenantService } from '../../../src/projects/project-tenant-service';
import type { RouteDef } from '../../route-def';
import { tenantCanonical } from '../projects/tenant-canonical';
import { bodyOf, created, noContent, orgCallerOf, paramOf } from '../../request';

const TARGET = '/api/v2/tenants/:tenant/envs/:env';

/** Rollback with preview, and the pin a rollback leaves (docs/promotions.md). */
export function rollbackRoutes(
  releases: ReleaseService,
  pins: PinService,
  tenants: Pick<ProjectTenantService, 'resolve'>,
): RouteDef[] {
  const tag = 'rollback';
  const canonical = tenantCanonical(tenants);
  const target = (ctx: AppContext) => [orgCallerOf(ctx), paramOf(ctx, 'tenant'), paramOf(ctx, 'env')] as const;
  return [
    {
      method: 'post',
      path: `${TARGET}/rollback/preview`,
      summary: 'What a rollback would commit: the release it restores and the diff of the files back to it',
      tag,
      access: { kind: 'organization', action: 'tenants.{tenant}.rollback.preview', canonical },
      body: 'rollback',
      handler: async (ctx) => {
        ctx.body = await releases.rollbackPreview(...target(ctx), bodyOf<RollbackRequest>(ctx).releaseId);
      },
    },
    {
      method: 'post',
      path: `${TARGET}/rollback`,
      summary:
        'Roll back to the last Healthy release (or a chosen one) with a reason: a release through approvals that pins the target; one at a time per target',
      tag,
      access: { kind: 'organization', action: 'tenants.{tenant}.rollback', canonical },
      body: 'rollback',
      handler: async (ctx) => {
        created(ctx, await releases.rollback(...target(ctx), bodyOf<RollbackRequest>(ctx)));
      },
    },
    {
      method: 'get',
      path: `${TARGET}/pin`,
      summary: 'The pin of the tenant and environment (404 when not pinned)',
      tag,
      access: { kind: 'organization', action: 'tenants.{tenant}.pin.read', canonical },
      handler: async (ctx) => {
        ctx.body = await pins.get(...target(ctx));
      },
    },
    {
      method: 'delete',
      path: `${TARGET}/pin`,
      summary: 'Unpin: image auto-update and bulk update reach the target again (audited)',
      tag,
      access: { kind: 'organization', action: 'tenants.{tenant}.pin.remove', canonical },
      handler: async (ctx) => {
        await pins.unpin(...target(ctx));
        noContent(ctx);
      },
    },
    {
      method: 'get',
      path: '/api/v2/projects/:slug/pins',
      summary: 'Pinned tenants and environments of the project',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.pins.read' },
      handler: async (ctx) => {
        ctx.body = await pins.list(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
  ];
}
