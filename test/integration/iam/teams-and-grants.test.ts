import { createAuthorizationChain } from '../../../src/iam/authorization-chain';
import { grantRoles } from '../../../src/permissions/grant-roles';
import type { Principal } from '../../../src/iam/principal';
import { makeOrg, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

interface Team {
  id: string;
  slug: string;
  memberCount: number;
}
interface Grant {
  id: string;
  subjectType: string;
  subjectId: string;
  resourceType: string;
  resourceId: string;
  role: string;
}
interface Permissions {
  organizationRole: string | null;
  teams: { id: string; slug: string }[];
  grants: (Grant & { via: string })[];
  allowedActions: string[];
  resource?: { type: string; id: string; role: string | null };
  decision?: { allowed: boolean; reason: string; requiredRole: string | null };
}

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let admin: Member;
let viewer: Member;
let member: Member;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  const made = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer']);
  org = made.org;
  admin = made.members.admin!;
  viewer = made.members.viewer!;
  member = made.members.member!;
});
afterAll(() => platform.close());

async function createTeam(slug: string): Promise<Team> {
  const res = await http.post<Team>('/api/v2/teams', { token: admin.token, body: { slug, name: slug } });
  expect(res.status).toBe(201);
  return res.body;
}

async function grant(body: Record<string, string>): Promise<Grant> {
  const res = await http.post<Grant>('/api/v2/permissions', { token: admin.token, body });
  expect(res.status).toBe(201);
  return res.body;
}

function principalOf(m: Member, role: Principal['role']): Principal {
  return {
    kind: 'user',
    actorType: 'user',
    actor: m.user.email,
    userId: m.user.id,
    email: m.user.email,
    organizationId: org.id,
    role,
    credentialId: 'test',
    isInstanceAdmin: false,
  };
}

describe('teams', () => {
  it('creates, reads, renames and lists teams; members of the organization only can join', async () => {
    const team = await createTeam('platform');
    expect(team).toMatchObject({ slug: 'platform', memberCount: 0 });
    expect(
      (await http.post('/api/v2/teams', { token: admin.token, body: { slug: 'platform', name: 'x' } })).status,
    ).toBe(409);
    expect((await http.post('/api/v2/teams', { token: member.token, body: { slug: 'nope', name: 'x' } })).status).toBe(
      403,
    );
    const add = await http.post(`/api/v2/teams/${team.id}/members`, {
      token: admin.token,
      body: { userId: viewer.user.id },
    });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ userId: viewer.user.id, organizationRole: 'viewer' });
    expect(
      (await http.post(`/api/v2/teams/${team.id}/members`, { token: admin.token, body: { userId: viewer.user.id } }))
        .status,
    ).toBe(409);
    const outsider = await makeOrg(platform);
    const foreign = await http.post(`/api/v2/teams/${team.id}/members`, {
      token: admin.token,
      body: { userId: outsider.members.owner!.user.id },
    });
    expect(foreign.status).toBe(404);

    const read = await http.get<Team>(`/api/v2/teams/${team.id}`, { token: viewer.token });
    expect(read.body.memberCount).toBe(1);
    const renamed = await http.patch(`/api/v2/teams/${team.id}`, { token: admin.token, body: { name: 'Platform' } });
    expect(renamed.body).toMatchObject({ name: 'Platform', slug: 'platform' });
    expect((await http.patch(`/api/v2/teams/${team.id}`, { token: admin.token, body: {} })).status).toBe(400);
    const members = await http.get<{ items: { userId: string }[] }>(`/api/v2/teams/${team.id}/members`, {
      token: viewer.token,
    });
    expect(members.body.items.map((m) => m.userId)).toEqual([viewer.user.id]);
    const list = await http.get<{ items: Team[] }>('/api/v2/teams', { token: viewer.token });
    expect(list.body.items.map((t) => t.slug)).toContain('platform');
    expect(
      (await http.delete(`/api/v2/teams/${team.id}/members/${viewer.user.id}`, { token: admin.token })).status,
    ).toBe(204);
    expect(
      (await http.delete(`/api/v2/teams/${team.id}/members/${viewer.user.id}`, { token: admin.token })).status,
    ).toBe(404);
    const actions = (await platform.services
      .db('audit_log')
      .where({ organization_id: org.id, resource_id: team.id })
      .orderBy('seq')
      .pluck('action')) as string[];
    expect(actions).toEqual(['team.create', 'team.member.add', 'team.update', 'team.member.remove']);
  });
});

describe('resource grants and the authorization chain', () => {
  it('lifts a user above their organization role on the granted resource only', async () => {
    const g = await grant({
      subjectType: 'user',
      subjectId: viewer.user.id,
      resourceType: 'project',
      resourceId: 'web',
      role: 'admin',
    });
    expect(g).toMatchObject({ subjectType: 'user', subjectId: viewer.user.id, resourceId: 'web', role: 'admin' });
    const mine = await http.get<Permissions>('/api/v2/iam/me/permissions?resourceType=project&resourceId=web', {
      token: viewer.token,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.organizationRole).toBe('viewer');
    expect(mine.body.resource).toEqual({ type: 'project', id: 'web', role: 'admin' });
    expect(mine.body.grants.map((x) => [x.resourceId, x.via])).toEqual([['web', 'user']]);
    expect(mine.body.allowedActions).toContain('org.teams.read');
    expect(mine.body.allowedActions).not.toContain('org.teams.create');
    const other = await http.get<Permissions>('/api/v2/iam/me/permissions?resourceType=project&resourceId=api', {
      token: viewer.token,
    });
    expect(other.body.resource?.role).toBe('viewer');

    // The same chain the routes use, with the spec's resource-scoped action shapes.
    const chain = createAuthorizationChain(grantRoles(platform.services.db), {
      'projects.*.releases.create': 'member',
      'clusters.*.commands.sync': 'admin',
    });
    const asViewer = principalOf(viewer, 'viewer');
    expect(await chain.decide(asViewer, 'projects.web.releases.create')).toMatchObject({
      allowed: true,
      reason: 'resource-grant',
      grantRole: 'admin',
    });
    expect(await chain.decide(asViewer, 'projects.api.releases.create')).toMatchObject({
      allowed: false,
      reason: 'insufficient-role',
    });
    await expect(chain.authorize(asViewer, 'projects.api.releases.create', null)).rejects.toThrow(
      'this action requires the member role',
    );
    await expect(chain.authorize(asViewer, 'projects.web.unknown', null)).rejects.toThrow(
      'action projects.web.unknown is not permitted',
    );
  });

  it('gives team members the team grants, and runs approval-policy hooks last', async () => {
    const team = await createTeam('sre');
    await http.post(`/api/v2/teams/${team.id}/members`, { token: admin.token, body: { userId: member.user.id } });
    await grant({ subjectType: 'team', subjectId: team.id, resourceType: 'cluster', resourceId: 'c1', role: 'admin' });
    const chain = createAuthorizationChain(grantRoles(platform.services.db), { 'clusters.*.commands.sync': 'admin' });
    const asMember = principalOf(member, 'member');
    expect(await chain.decide(asMember, 'clusters.c1.commands.sync')).toMatchObject({ allowed: true });
    expect(await chain.decide(asMember, 'clusters.c2.commands.sync')).toMatchObject({ allowed: false });

    const seen: string[] = [];
    chain.addApprovalPolicy({
      name: 'freeze',
      check: async ({ action }) => {
        seen.push(action);
        throw new Error('environment frozen');
      },
    });
    await expect(chain.authorize(asMember, 'clusters.c1.commands.sync', null)).rejects.toThrow('environment frozen');
    await expect(chain.authorize(asMember, 'clusters.c2.commands.sync', null)).rejects.toThrow(
      'requires the admin role',
    );
    expect(seen).toEqual(['clusters.c1.commands.sync']);

    const viaApi = await http.get<Permissions>(
      `/api/v2/iam/users/${member.user.id}/permissions?resourceType=cluster&resourceId=c1`,
      {
        token: admin.token,
      },
    );
    expect(viaApi.body.teams.map((t) => t.slug)).toEqual(['sre']);
    expect(viaApi.body.grants).toEqual([
      expect.objectContaining({ via: 'team', subjectId: team.id, resourceId: 'c1' }),
    ]);
    expect(viaApi.body.resource?.role).toBe('admin');
    expect((await http.get(`/api/v2/iam/users/${member.user.id}/permissions`, { token: member.token })).status).toBe(
      403,
    );

    expect((await http.delete(`/api/v2/teams/${team.id}`, { token: admin.token })).status).toBe(204);
    expect(await chain.decide(asMember, 'clusters.c1.commands.sync')).toMatchObject({ allowed: false });
    expect(await platform.services.db('resource_grants').where({ team_id: team.id })).toEqual([]);
  });

  it('validates subjects and resources, updates and revokes grants with role_changes audit entries', async () => {
    const bad = await http.post('/api/v2/permissions', {
      token: admin.token,
      body: {
        subjectType: 'user',
        subjectId: viewer.user.id,
        resourceType: 'project',
        resourceId: 'a.b',
        role: 'admin',
      },
    });
    expect(bad.status).toBe(400);
    const ownerRole = await http.post('/api/v2/permissions', {
      token: admin.token,
      body: { subjectType: 'user', subjectId: viewer.user.id, resourceType: 'tenant', resourceId: 't1', role: 'owner' },
    });
    expect(ownerRole.status).toBe(400);
    const g = await grant({
      subjectType: 'user',
      subjectId: member.user.id,
      resourceType: 'tenant',
      resourceId: 't1',
      role: 'viewer',
    });
    const dup = await http.post('/api/v2/permissions', {
      token: admin.token,
      body: { subjectType: 'user', subjectId: member.user.id, resourceType: 'tenant', resourceId: 't1', role: 'admin' },
    });
    expect(dup.status).toBe(409);
    const updated = await http.patch<Grant>(`/api/v2/permissions/${g.id}`, {
      token: admin.token,
      body: { role: 'member' },
    });
    expect(updated.body.role).toBe('member');
    const moved = await http.patch(`/api/v2/permissions/${g.id}`, {
      token: admin.token,
      body: { role: 'member', resourceId: 'other' },
    });
    expect(moved.status).toBe(400);
    const listed = await http.get<{ items: Grant[] }>('/api/v2/permissions?resourceType=tenant&resourceId=t1', {
      token: admin.token,
    });
    expect(listed.body.items.map((x) => x.id)).toEqual([g.id]);
    expect((await http.get('/api/v2/permissions', { token: member.token })).status).toBe(403);
    expect((await http.delete(`/api/v2/permissions/${g.id}`, { token: admin.token })).status).toBe(204);
    expect((await http.get(`/api/v2/permissions/${g.id}`, { token: admin.token })).status).toBe(404);
    const rows = await platform.services
      .db('audit_log')
      .where({ organization_id: org.id, resource_id: g.id })
      .orderBy('seq');
    expect(rows.map((r: { action: string; category: string }) => [r.action, r.category])).toEqual([
      ['permission.grant', 'role_changes'],
      ['permission.update', 'role_changes'],
      ['permission.revoke', 'role_changes'],
    ]);
  });

  it("drops a removed member's grants and team memberships with the membership", async () => {
    const made = await makeOrg(platform, ['owner', 'member']);
    const leaver = made.members.member!;
    const owner = made.members.owner!;
    const team = await http.post<Team>('/api/v2/teams', { token: owner.token, body: { slug: 'ops', name: 'Ops' } });
    await http.post(`/api/v2/teams/${team.body.id}/members`, { token: owner.token, body: { userId: leaver.user.id } });
    await http.post('/api/v2/permissions', {
      token: owner.token,
      body: { subjectType: 'user', subjectId: leaver.user.id, resourceType: 'project', resourceId: 'p', role: 'admin' },
    });
    const removed = await http.delete(`/api/v1/organizations/${made.org.slug}/members/${leaver.user.id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect(await platform.services.db('team_members').where({ user_id: leaver.user.id })).toEqual([]);
    expect(await platform.services.db('resource_grants').where({ user_id: leaver.user.id })).toEqual([]);
  });
});

describe('access overview', () => {
  it('summarises roles, privileged members, teams, grants and open invitations for admins', async () => {
    const res = await http.get<{
      members: { total: number; byRole: Record<string, number> };
      privileged: { email: string; role: string }[];
      teams: { slug: string; members: number; grants: number }[];
      grants: { total: number; byResourceType: Record<string, number> };
      pendingInvitations: number;
    }>('/api/v2/iam/access-overview', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.members.byRole).toEqual({ owner: 1, admin: 1, member: 1, viewer: 1 });
    expect(res.body.privileged.map((p) => p.role)).toEqual(['owner', 'admin']);
    expect(res.body.teams.find((t) => t.slug === 'platform')).toMatchObject({ members: 0, grants: 0 });
    expect(res.body.grants.byResourceType).toMatchObject({ project: 1 });
    expect(res.body.pendingInvitations).toBe(0);
    expect((await http.get('/api/v2/iam/access-overview', { token: viewer.token })).status).toBe(403);
  });
});
