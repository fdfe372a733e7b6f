import type { PermissionCreateRequest, PermissionUpdateRequest } from '../../request-types.generated';
import type { GrantFilters } from '../../../src/permissions/grant-repository';
import type { GrantService } from '../../../src/permissions/grant-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

/** IAM center: resource grants, a user's or team's role on one cluster, project or tenant (/api/v2/permissions). */
export function permissionRoutes(grants: GrantService, pageMax: number): RouteDef[] {
  const one = '/api/v2/permissions/:grantId';
  return [
    {
      method: 'get',
      path: '/api/v2/permissions',
      summary: 'Resource grants of the organization, filtered by subject or resource',
      tag: 'permissions',
      access: { kind: 'organization', action: 'org.permissions.read' },
      query: 'permission-list-query',
      handler: async (ctx) => {
        const { subjectType, subjectId, resourceType, resourceId } = queryOf(ctx);
        const filters = { subjectType, subjectId, resourceType, resourceId } as GrantFilters;
        ctx.body = await grants.list(orgCallerOf(ctx), filters, pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: '/api/v2/permissions',
      summary: 'Grant a user or team a role on a cluster, project or tenant',
      tag: 'permissions',
      access: { kind: 'organization', action: 'org.permissions.create' },
      body: 'permission-create',
      status: 201,
      handler: async (ctx) => created(ctx, await grants.create(orgCallerOf(ctx), bodyOf<PermissionCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: one,
      summary: 'One resource grant',
      tag: 'permissions',
      access: { kind: 'organization', action: 'org.permissions.read' },
      handler: async (ctx) => {
        ctx.body = await grants.get(orgCallerOf(ctx), paramOf(ctx, 'grantId'));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: "Change a grant's role",
      tag: 'permissions',
      access: { kind: 'organization', action: 'org.permissions.update' },
      body: 'permission-update',
      handler: async (ctx) => {
        const { role } = bodyOf<PermissionUpdateRequest>(ctx);
        ctx.body = await grants.updateRole(orgCallerOf(ctx), paramOf(ctx, 'grantId'), role);
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Revoke a resource grant',
      tag: 'permissions',
      access: { kind: 'organization', action: 'org.permissions.delete' },
      handler: async (ctx) => {
        await grants.revoke(orgCallerOf(ctx), paramOf(ctx, 'grantId'));
        noContent(ctx);
      },
    },
  ];
}
