import type { TeamCreateRequest, TeamMemberAddRequest, TeamUpdateRequest } from '../../request-types.generated';
import type { TeamService } from '../../../src/teams/team-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf } from '../../request';

/** IAM center: teams of the active organization and their members (/api/v2/teams). */
export function teamRoutes(teams: TeamService, pageMax: number): RouteDef[] {
  const one = '/api/v2/teams/:teamId';
  return [
    {
      method: 'get',
      path: '/api/v2/teams',
      summary: 'Teams of the organization, by slug',
      tag: 'teams',
      access: { kind: 'organization', action: 'org.teams.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await teams.list(orgCallerOf(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: '/api/v2/teams',
      summary: 'Create a team',
      tag: 'teams',
      access: { kind: 'organization', action: 'org.teams.create' },
      body: 'team-create',
      status: 201,
      handler: async (ctx) => created(ctx, await teams.create(orgCallerOf(ctx), bodyOf<TeamCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: one,
      summary: 'One team with its member count',
      tag: 'teams',
      access: { kind: 'organization', action: 'org.teams.read' },
      handler: async (ctx) => {
        ctx.body = await teams.get(orgCallerOf(ctx), paramOf(ctx, 'teamId'));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: "Change a team's name or description",
      tag: 'teams',
      access: { kind: 'organization', action: 'org.teams.update' },
      body: 'team-update',
      handler: async (ctx) => {
        ctx.body = await teams.update(orgCallerOf(ctx), paramOf(ctx, 'teamId'), bodyOf<TeamUpdateRequest>(ctx));
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Delete a team with its memberships and grants',
      tag: 'teams',
      access: { kind: 'organization', action: 'org.teams.delete' },
      handler: async (ctx) => {
        await teams.delete(orgCallerOf(ctx), paramOf(ctx, 'teamId'));
        noContent(ctx);
      },
    },
    {
      method: 'get',
      path: `${one}/members`,
      summary: 'Members of a team with their organization roles',
      tag: 'teams',
      access: { kind: 'organization', action: 'org.teams.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await teams.listMembers(orgCallerOf(ctx), paramOf(ctx, 'teamId'), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: `${one}/members`,
      summary: 'Add a member of the organization to a team',
      tag: 'teams',
      access: { kind: 'organization', action: 'org.teams.members.add' },
      body: 'team-member-add',
      status: 201,
      handler: async (ctx) => {
        const { userId } = bodyOf<TeamMemberAddRequest>(ctx);
        created(ctx, await teams.addMember(orgCallerOf(ctx), paramOf(ctx, 'teamId'), userId));
      },
    },
    {
      method: 'delete',
      path: `${one}/members/:userId`,
      summary: 'Remove a member from a team',
      tag: 'teams',
      access: { kind: 'organization', action: 'org.teams.members.remove' },
      handler: async (ctx) => {
        await teams.removeMember(orgCallerOf(ctx), paramOf(ctx, 'teamId'), paramOf(ctx, 'userId'));
        noContent(ctx);
      },
    },
  ];
}
