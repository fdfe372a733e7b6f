import type { FreezeCreateRequest, FreezeUpdateRequest, StopTheLineRequest } from '../../request-types.generated';
import type { FreezeService } from '../../../src/freezes/freeze-service';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, paramOf } from '../../request';

/** One set of freeze routes: a project's (`/api/v2/projects/{slug}/freezes`) or the organization's (`/api/v2/freezes`). */
function freezeSet(freezes: FreezeService, base: string, action: string, slugOf: (ctx: AppContext) => string | null) {
  const one = `${base}/:id`;
  const tag = 'freezes';
  const read = { kind: 'organization' as const, action: `${action}.read` };
  const manage = { kind: 'organization' as const, action: `${action}.manage` };
  const routes: RouteDef[] = [
    {
      method: 'get',
      path: base,
      summary:
        'Freeze windows with their active flag, current occurrence and upcoming windows, and the stop-the-line switch',
      tag,
      access: read,
      handler: async (ctx) => {
        ctx.body = await freezes.list(orgCallerOf(ctx), slugOf(ctx));
      },
    },
    {
      method: 'post',
      path: base,
      summary: 'Create a one-off or recurring (RRULE in a time zone) freeze window',
      tag,
      access: manage,
      body: 'freeze-create',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await freezes.create(orgCallerOf(ctx), slugOf(ctx), bodyOf<FreezeCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: one,
      summary: 'One freeze window',
      tag,
      access: read,
      handler: async (ctx) => {
        ctx.body = await freezes.get(orgCallerOf(ctx), slugOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: 'Change a freeze window',
      tag,
      access: manage,
      body: 'freeze-update',
      handler: async (ctx) => {
        ctx.body = await freezes.update(
          orgCallerOf(ctx),
          slugOf(ctx),
          paramOf(ctx, 'id'),
          bodyOf<FreezeUpdateRequest>(ctx),
        );
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Delete a freeze window',
      tag,
      access: manage,
      handler: async (ctx) => {
        await freezes.delete(orgCallerOf(ctx), slugOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
  ];
  return routes;
}

export function freezeRoutes(freezes: FreezeService): RouteDef[] {
  return [
    // Before /api/v2/freezes/:id, which would otherwise take the name as an id.
    {
      method: 'get',
      path: '/api/v2/freezes/stop-the-line',
      summary: "The organization's stop-the-line switch (every project frozen while on)",
      tag: 'freezes',
      access: { kind: 'organization', action: 'org.freezes.read' },
      handler: async (ctx) => {
        ctx.body = await freezes.stopTheLine(orgCallerOf(ctx));
      },
    },
    {
      method: 'put',
      path: '/api/v2/freezes/stop-the-line',
      summary: 'Stop the line (freeze every project of the organization) or release it',
      tag: 'freezes',
      access: { kind: 'organization', action: 'org.freezes.stop-the-line' },
      body: 'stop-the-line',
      handler: async (ctx) => {
        ctx.body = await freezes.setStopTheLine(orgCallerOf(ctx), bodyOf<StopTheLineRequest>(ctx));
      },
    },
    ...freezeSet(freezes, '/api/v2/freezes', 'org.freezes', () => null),
    ...freezeSet(freezes, '/api/v2/projects/:slug/freezes', 'projects.{slug}.freezes', (ctx) => paramOf(ctx, 'slug')),
  ];
}
