import type { BreakGlassOpenRequest, BreakGlassSettingsRequest } from '../../request-types.generated';
import type { BreakGlassService } from '../../../src/break-glass/break-glass-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, orgCallerOf, pageOf, paramOf } from '../../request';

/** Break-glass sessions of the organization (/api/v2/break-glass). */
export function breakGlassRoutes(breakGlass: BreakGlassService, pageMax: number): RouteDef[] {
  const tag = 'break-glass';
  return [
    {
      method: 'get',
      path: '/api/v2/break-glass/settings',
      summary: 'Organization roles that may open a break-glass session',
      tag,
      access: { kind: 'organization', action: 'org.break-glass.settings.read' },
      handler: async (ctx) => {
        ctx.body = await breakGlass.settings(orgCallerOf(ctx));
      },
    },
    {
      method: 'put',
      path: '/api/v2/break-glass/settings',
      summary: 'Set the organization roles that may open a break-glass session (owner always)',
      tag,
      access: { kind: 'organization', action: 'org.break-glass.settings.update' },
      body: 'break-glass-settings',
      handler: async (ctx) => {
        ctx.body = await breakGlass.updateSettings(orgCallerOf(ctx), bodyOf<BreakGlassSettingsRequest>(ctx));
      },
    },
    {
      method: 'post',
      path: '/api/v2/break-glass',
      summary:
        'Open a break-glass session for the caller (role allowed by the settings); it closes itself after its duration',
      tag,
      // Every role may ask; the service checks the organization's allowed roles.
      access: { kind: 'organization', action: 'org.break-glass.open' },
      body: 'break-glass-open',
      status: 201,
      handler: async (ctx) => created(ctx, await breakGlass.open(orgCallerOf(ctx), bodyOf<BreakGlassOpenRequest>(ctx))),
    },
    {
      method: 'get',
      path: '/api/v2/break-glass',
      summary: 'Break-glass sessions, open and closed, newest first',
      tag,
      access: { kind: 'organization', action: 'org.break-glass.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await breakGlass.list(orgCallerOf(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'get',
      path: '/api/v2/break-glass/:id',
      summary: 'One break-glass session with the audit entries of the actions taken under it',
      tag,
      access: { kind: 'organization', action: 'org.break-glass.read' },
      handler: async (ctx) => {
        ctx.body = await breakGlass.get(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'post',
      path: '/api/v2/break-glass/:id/close',
      summary: 'Close a break-glass session by hand (its holder, an admin or an owner)',
      tag,
      access: { kind: 'organization', action: 'org.break-glass.close' },
      handler: async (ctx) => {
        ctx.body = await breakGlass.close(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
  ];
}
