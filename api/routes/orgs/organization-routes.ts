import type {
  MemberRoleUpdateRequest,
  OrganizationCreateRequest,
  OrganizationUpdateRequest,
} from '../../request-types.generated';

import type { OrgService } from '../../../src/orgs/org-service';
import { bodyOf, callerOf, created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';
import type { RouteDef } from '../../route-def';

/** Organizations of the caller and their members (/api/v1/organizations). */
export function organizationRoutes(orgs: OrgService, pageMax: number): RouteDef[] {
  const one = '/api/v1/organizations/:slug';
  return [
    {
      method: 'post',
      path: '/api/v1/organizations',
      summary: 'Create an organization; the caller becomes its owner (plan free)',
      tag: 'organizations',
      access: { kind: 'authenticated', action: 'organizations.create' },
      body: 'organization-create',
      status: 201,
      handler: async (ctx) => created(ctx, await orgs.create(callerOf(ctx), bodyOf<OrganizationCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: '/api/v1/organizations',
      summary: "The caller's organizations with the caller's role in each",
      tag: 'organizations',
      access: { kind: 'authenticated', action: 'organizations.list' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await orgs.listMine(callerOf(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'get',
      path: one,
      summary: 'The active organization',
      tag: 'organizations',
      access: { kind: 'organization', action: 'org.read' },
      handler: async (ctx) => {
        ctx.body = await orgs.get(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: 'Rename the active organization',
      tag: 'organizations',
      access: { kind: 'organization', action: 'org.update' },
      body: 'organization-update',
      handler: async (ctx) => {
        ctx.body = await orgs.rename(
          orgCallerOf(ctx),
          paramOf(ctx, 'slug'),
          bodyOf<OrganizationUpdateRequest>(ctx).name,
        );
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Delete the active organization (owner only; ?confirm=<slug>); pending invitations end with it',
      tag: 'organizations',
      access: { kind: 'organization', action: 'org.delete' },
      query: 'organization-delete-query',
      handler: async (ctx) => {
        await orgs.delete(orgCallerOf(ctx), paramOf(ctx, 'slug'), queryOf(ctx).confirm ?? '');
        noContent(ctx);
      },
    },
    {
      method: 'get',
      path: `${one}/members`,
      summary: 'Members with their roles',
      tag: 'organizations',
      access: { kind: 'organization', action: 'org.members.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await orgs.listMembers(orgCallerOf(ctx), paramOf(ctx, 'slug'), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'patch',
      path: `${one}/members/:userId`,
      summary: "Change a member's role (owners only grant or take the owner role; one owner always remains)",
      tag: 'organizations',
      access: { kind: 'organization', action: 'org.members.update' },
      body: 'member-role-update',
      handler: async (ctx) => {
        const { role } = bodyOf<MemberRoleUpdateRequest>(ctx);
        ctx.body = await orgs.changeRole(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'userId'), role);
      },
    },
    {
      method: 'delete',
      path: `${one}/members/:userId`,
      summary: 'Remove a member (with their team memberships and grants); the last owner cannot be removed',
      tag: 'organizations',
      access: { kind: 'organization', action: 'org.members.remove' },
      handler: async (ctx) => {
        await orgs.removeMember(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'userId'));
        noContent(ctx);
      },
    },
  ];
}
