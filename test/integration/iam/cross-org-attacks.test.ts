import { makeOrg, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * docs/security.md, on the resources this issue owns: another organization's identifiers
 * answer exactly like missing ones and change nothing (the probe signal goes to operators: cross-org-probes.test.ts);
 * role, organization and plan
 * fields in bodies are refused; viewers and members cannot reach admin actions.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let orgA: Awaited<ReturnType<typeof makeOrg>>['org'];
let orgB: Awaited<ReturnType<typeof makeOrg>>['org'];
let ownerA: Member;
let adminB: Member;
let memberA: Member;
let viewerA: Member;
const a: Record<string, string> = {};

const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  const madeA = await makeOrg(platform, ['owner', 'member', 'viewer']);
  const madeB = await makeOrg(platform, ['owner', 'admin']);
  ({ org: orgA } = madeA);
  ({ org: orgB } = madeB);
  ownerA = madeA.members.owner!;
  memberA = madeA.members.member!;
  viewerA = madeA.members.viewer!;
  adminB = madeB.members.admin!;
  const token = ownerA.token;
  a.team = (await http.post<{ id: string }>('/api/v2/teams', { token, body: { slug: 'red', name: 'Red' } })).body.id;
  a.tenant = (
    await http.post<{ id: string }>('/api/v2/org/tenants', { token, body: { slug: 'big', name: 'Big' } })
  ).body.id;
  a.grant = (
    await http.post<{ id: string }>('/api/v2/permissions', {
      token,
      body: { subjectType: 'team', subjectId: a.team, resourceType: 'project', resourceId: 'web', role: 'admin' },
    })
  ).body.id;
  await http.post('/api/v2/org/environments', { token, body: { slug: 'prod-a', production: true } });
  a.invitation = (
    await http.post<{ id: string }>(`/api/v1/organizations/${orgA.slug}/invitations`, {
      token,
      body: { email: 'target@example.test', role: 'member' },
    })
  ).body.id;
});
afterAll(() => platform.close());

interface Probe {
  name: string;
  method: 'GET' | 'PATCH' | 'DELETE' | 'POST';
  foreign: string;
  missing: string;
  body?: Record<string, unknown>;
}

function probes(): Probe[] {
  return [
    { name: 'team read', method: 'GET', foreign: `/api/v2/teams/${a.team}`, missing: `/api/v2/teams/${MISSING}` },
    {
      name: 'team rename',
      method: 'PATCH',
      foreign: `/api/v2/teams/${a.team}`,
      missing: `/api/v2/teams/${MISSING}`,
      body: { name: 'Pwned' },
    },
    { name: 'team delete', method: 'DELETE', foreign: `/api/v2/teams/${a.team}`, missing: `/api/v2/teams/${MISSING}` },
    {
      name: 'team member add',
      method: 'POST',
      foreign: `/api/v2/teams/${a.team}/members`,
      missing: `/api/v2/teams/${MISSING}/members`,
      body: { userId: adminB.user.id },
    },
    {
      name: 'grant read',
      method: 'GET',
      foreign: `/api/v2/permissions/${a.grant}`,
      missing: `/api/v2/permissions/${MISSING}`,
    },
    {
      name: 'grant change',
      method: 'PATCH',
      foreign: `/api/v2/permissions/${a.grant}`,
      missing: `/api/v2/permissions/${MISSING}`,
      body: { role: 'viewer' },
    },
    {
      name: 'grant revoke',
      method: 'DELETE',
      foreign: `/api/v2/permissions/${a.grant}`,
      missing: `/api/v2/permissions/${MISSING}`,
    },
    {
      name: 'tenant read',
      method: 'GET',
      foreign: `/api/v2/org/tenants/${a.tenant}`,
      missing: `/api/v2/org/tenants/${MISSING}`,
    },
    {
      name: 'tenant change',
      method: 'PATCH',
      foreign: `/api/v2/org/tenants/${a.tenant}`,
      missing: `/api/v2/org/tenants/${MISSING}`,
      body: { name: 'Pwned' },
    },
    {
      name: 'tenant delete',
      method: 'DELETE',
      foreign: `/api/v2/org/tenants/${a.tenant}`,
      missing: `/api/v2/org/tenants/${MISSING}`,
    },
    {
      name: 'environment change',
      method: 'PATCH',
      foreign: '/api/v2/org/environments/prod-a',
      missing: '/api/v2/org/environments/prod-zz',
      body: { production: false },
    },
    {
      name: 'environment delete',
      method: 'DELETE',
      foreign: '/api/v2/org/environments/prod-a',
      missing: '/api/v2/org/environments/prod-zz',
    },
    {
      name: 'organization read by slug',
      method: 'GET',
      foreign: `/api/v1/organizations/${orgA.slug}`,
      missing: '/api/v1/organizations/no-such-org',
    },
    {
      name: 'organization rename by slug',
      method: 'PATCH',
      foreign: `/api/v1/organizations/${orgA.slug}`,
      missing: '/api/v1/organizations/no-such-org',
      body: { name: 'Pwned' },
    },
    {
      name: 'invitation revoke (B slug, A id)',
      method: 'DELETE',
      foreign: `/api/v1/organizations/${orgB.slug}/invitations/${a.invitation}`,
      missing: `/api/v1/organizations/${orgB.slug}/invitations/${MISSING}`,
    },
    {
      name: 'invitation reissue (B slug, A id)',
      method: 'POST',
      foreign: `/api/v1/organizations/${orgB.slug}/invitations/${a.invitation}/reissue`,
      missing: `/api/v1/organizations/${orgB.slug}/invitations/${MISSING}/reissue`,
    },
  ];
}

async function snapshotA() {
  const db = platform.services.db;
  return {
    team: await db('teams').where({ id: a.team }).first('name'),
    members: await db('team_members').where({ team_id: a.team }).pluck('user_id'),
    grant: await db('resource_grants').where({ id: a.grant }).first('role'),
    tenant: await db('org_tenants').where({ id: a.tenant }).first('name'),
    environment: await db('org_environments').where({ organization_id: orgA.id }).first('production'),
    organization: await db('organizations').where({ id: orgA.id }).first('name'),
    invitation: await db('invitations').where({ id: a.invitation }).first('status', 'token_hash', 'reissue_count'),
    audit: await db('audit_log').where({ organization_id: orgA.id }).count<{ n: string }[]>('* as n'),
  };
}

describe('A-40: another organization by id', () => {
  it('answers 404 exactly like a missing id and changes nothing in A, nor in B', async () => {
    const before = await snapshotA();
    const auditB = () =>
      platform.services.db('audit_log').where({ organization_id: orgB.id }).count<{ n: string }[]>('* as n');
    const beforeB = await auditB();
    for (const probe of probes()) {
      const foreign = await http.request(probe.method, probe.foreign, { token: adminB.token, body: probe.body });
      const missing = await http.request(probe.method, probe.missing, { token: adminB.token, body: probe.body });
      expect([probe.name, foreign.status, foreign.body]).toEqual([probe.name, 404, missing.body]);
    }
    expect(await snapshotA()).toEqual(before);
    expect(await auditB()).toEqual(beforeB);
  });

  it('ignores organization selectors in queries and headers: only the token decides', async () => {
    const withQuery = await http.get('/api/v2/teams?orgId=' + orgA.id, { token: adminB.token });
    expect(withQuery.status).toBe(400);
    const envs = await http.get<{ items: { slug: string }[] }>(`/api/v2/org/environments?orgId=${orgA.id}`, {
      token: adminB.token,
    });
    expect(envs.status).toBe(200);
    expect(envs.body.items).toEqual([]);
    const withHeader = await http.get<{ items: { id: string }[] }>('/api/v2/teams', {
      token: adminB.token,
      headers: { 'X-Organization-ID': orgA.id },
    });
    expect(withHeader.status).toBe(200);
    expect(withHeader.text).not.toContain(a.team);
    const grants = await http.get('/api/v2/permissions?resourceId=web', { token: adminB.token });
    expect(grants.status).toBe(200);
    expect(grants.body).toEqual({ items: [], nextCursor: null });
  });

  it("cannot put another organization's team or user into a grant or team", async () => {
    const teamB = await http.post<{ id: string }>('/api/v2/teams', {
      token: adminB.token,
      body: { slug: 'b', name: 'B' },
    });
    const foreignTeam = await http.post('/api/v2/permissions', {
      token: adminB.token,
      body: { subjectType: 'team', subjectId: a.team, resourceType: 'project', resourceId: 'x', role: 'admin' },
    });
    expect(foreignTeam.status).toBe(404);
    const foreignUser = await http.post(`/api/v2/teams/${teamB.body.id}/members`, {
      token: adminB.token,
      body: { userId: memberA.user.id },
    });
    expect(foreignUser.status).toBe(404);
    expect(await platform.services.db('team_members').where({ user_id: memberA.user.id })).toEqual([]);
  });
});

describe('A-41: function-level access and mass assignment', () => {
  it('refuses admin actions to viewers and members', async () => {
    const adminOnly: [string, string, Record<string, unknown>?][] = [
      ['POST', '/api/v2/teams', { slug: 'v', name: 'V' }],
      ['DELETE', `/api/v2/teams/${a.team}`],
      [
        'POST',
        '/api/v2/permissions',
        { subjectType: 'user', subjectId: viewerA.user.id, resourceType: 'project', resourceId: 'p', role: 'admin' },
      ],
      ['GET', '/api/v2/iam/access-overview'],
      ['GET', '/api/v2/iam/audit-events'],
      ['POST', `/api/v1/organizations/${orgA.slug}/invitations`, { email: 'v@example.test', role: 'admin' }],
      ['PATCH', `/api/v1/organizations/${orgA.slug}`, { name: 'V' }],
      ['POST', '/api/v2/org/environments', { slug: 'v' }],
      ['DELETE', `/api/v2/org/tenants/${a.tenant}`],
    ];
    for (const who of [viewerA, memberA]) {
      for (const [method, path, body] of adminOnly) {
        const res = await http.request(method, path, { token: who.token, body });
        expect([method, path, res.status]).toEqual([method, path, 403]);
      }
    }
    expect(await platform.services.db('teams').where({ organization_id: orgA.id }).pluck('slug')).toEqual(['red']);
  });

  it('refuses a member raising their own role, and an admin granting owner', async () => {
    const self = await http.patch(`/api/v1/organizations/${orgA.slug}/members/${memberA.user.id}`, {
      token: memberA.token,
      body: { role: 'owner' },
    });
    expect(self.status).toBe(403);
    const madeAdmin = await http.patch(`/api/v1/organizations/${orgA.slug}/members/${memberA.user.id}`, {
      token: ownerA.token,
      body: { role: 'admin' },
    });
    expect(madeAdmin.status).toBe(200);
    const selfOwner = await http.patch(`/api/v1/organizations/${orgA.slug}/members/${memberA.user.id}`, {
      token: memberA.token,
      body: { role: 'owner' },
    });
    expect(selfOwner.status).toBe(403);
    expect(selfOwner.body).toEqual({ error: 'only an owner can grant the owner role' });
    const role = await platform.services
      .db('memberships')
      .where({ organization_id: orgA.id, user_id: memberA.user.id })
      .first('role');
    expect(role.role).toBe('admin');
  });

  it('rejects organization, owner, role and plan fields smuggled into bodies', async () => {
    const attempts: [string, string, Record<string, unknown>][] = [
      ['PATCH', `/api/v1/organizations/${orgA.slug}`, { name: 'X', plan: 'enterprise' }],
      ['PATCH', `/api/v1/organizations/${orgA.slug}`, { name: 'X', organizationId: orgB.id }],
      ['POST', '/api/v2/teams', { slug: 'smuggle', name: 'S', organizationId: orgB.id }],
      ['PATCH', `/api/v2/teams/${a.team}`, { name: 'S', orgId: orgB.id }],
      ['PATCH', `/api/v2/permissions/${a.grant}`, { role: 'viewer', subjectId: ownerA.user.id }],
      ['POST', '/api/v2/org/tenants', { slug: 'smuggle', name: 'S', organization_id: orgB.id }],
      [
        'PATCH',
        `/api/v1/organizations/${orgA.slug}/members/${viewerA.user.id}`,
        { role: 'member', userId: ownerA.user.id },
      ],
      [
        'POST',
        `/api/v1/organizations/${orgA.slug}/invitations`,
        { email: 's@example.test', role: 'member', ownerId: 'x' },
      ],
    ];
    const before = await snapshotA();
    for (const [method, path, body] of attempts) {
      const res = await http.request(method, path, { token: ownerA.token, body });
      expect([
        method,
        path,
        res.status,
        String((res.body as { error: string }).error).startsWith('invalid request body: unknown field'),
      ]).toEqual([method, path, 400, true]);
    }
    expect(await snapshotA()).toEqual(before);
  });
});
