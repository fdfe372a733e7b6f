import { addMember, makeOrg, makeUser, tokenFor, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

interface OrgBody {
  id: string;
  slug: string;
  name: string;
  plan: string;
  role: string;
}
interface MemberBody {
  userId: string;
  email: string;
  role: string;
}
interface PageBody<T> {
  items: T[];
  nextCursor: string | null;
}

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
});
afterAll(() => platform.close());

async function auditRows(organizationId: string, action: string) {
  return platform.services.db('audit_log').where({ organization_id: organizationId, action }).orderBy('seq');
}

describe('creating and listing', () => {
  it('creates an organization whose creator is the only owner, on the free plan', async () => {
    const { user } = await makeUser(platform);
    const token = await tokenFor(platform, user, null, null);
    const res = await http.post<OrgBody>('/api/v1/organizations', {
      token,
      body: { slug: 'acme-create', name: 'Acme' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ slug: 'acme-create', name: 'Acme', plan: 'free', role: 'owner' });
    const members = await platform.services.db('memberships').where({ organization_id: res.body.id });
    expect(members).toEqual([expect.objectContaining({ user_id: user.id, role: 'owner' })]);
    expect(await auditRows(res.body.id, 'organization.create')).toHaveLength(1);

    const dup = await http.post('/api/v1/organizations', { token, body: { slug: 'acme-create', name: 'Other' } });
    expect(dup.status).toBe(409);
  });

  it('ignores no field silently: plan, owner and ids in the body are rejected', async () => {
    const { user } = await makeUser(platform);
    const token = await tokenFor(platform, user, null, null);
    for (const extra of [{ plan: 'enterprise' }, { ownerId: user.id }, { id: 'x' }]) {
      const res = await http.post('/api/v1/organizations', {
        token,
        body: { slug: 'mass-assign', name: 'M', ...extra },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: `invalid request body: unknown field ${Object.keys(extra)[0]}` });
    }
    expect(await platform.services.db('organizations').where({ slug: 'mass-assign' }).first()).toBeUndefined();
  });

  it("lists the caller's organizations with their role, page by page", async () => {
    const { user } = await makeUser(platform);
    const token = await tokenFor(platform, user, null, null);
    for (const slug of ['list-c', 'list-a', 'list-b']) {
      expect((await http.post('/api/v1/organizations', { token, body: { slug, name: slug } })).status).toBe(201);
    }
    const other = await makeOrg(platform);
    await addMember(platform, other.org, user, 'viewer');
    const first = await http.get<PageBody<OrgBody>>('/api/v1/organizations?limit=2', { token });
    expect(first.status).toBe(200);
    expect(first.body.items.map((o) => o.slug)).toEqual(['list-a', 'list-b']);
    const second = await http.get<PageBody<OrgBody>>(`/api/v1/organizations?limit=2&cursor=${first.body.nextCursor}`, {
      token,
    });
    expect(second.body.items.map((o) => [o.slug, o.role])).toEqual([
      ['list-c', 'owner'],
      [other.org.slug, 'viewer'],
    ]);
    expect(second.body.nextCursor).toBeNull();
    expect((await http.get('/api/v1/organizations?cursor=garbage', { token })).status).toBe(400);
    expect((await http.get('/api/v1/organizations')).status).toBe(401);
  });
});

describe('creation limit per user (docs/security.md A-82)', () => {
  it('a user creates ORG_CREATE_RATE_PER_USER organizations per window, then gets 429 with Retry-After', async () => {
    const { user } = await makeUser(platform);
    const token = await tokenFor(platform, user, null, null);
    for (let i = 0; i < 5; i += 1) {
      const res = await http.post('/api/v1/organizations', { token, body: { slug: `many-${i}`, name: 'Many' } });
      expect(res.status).toBe(201);
    }
    const over = await http.post('/api/v1/organizations', { token, body: { slug: 'many-5', name: 'Many' } });
    expect([over.status, over.body]).toEqual([429, { error: 'you may create at most 5 organizations per 24 h' }]);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3600);
    expect(await platform.services.db('organizations').where({ slug: 'many-5' }).first()).toBeUndefined();
    const other = await tokenFor(platform, (await makeUser(platform)).user, null, null);
    expect(
      (await http.post('/api/v1/organizations', { token: other, body: { slug: 'many-6', name: 'M' } })).status,
    ).toBe(201);
  });
});

describe('reading, renaming and deleting', () => {
  it('serves the active organization only, renames it as admin and deletes it as owner with confirmation', async () => {
    const { org, members } = await makeOrg(platform, ['owner', 'admin', 'viewer']);
    const path = `/api/v1/organizations/${org.slug}`;
    expect((await http.get<OrgBody>(path, { token: members.viewer!.token })).body).toMatchObject({
      id: org.id,
      role: 'viewer',
    });
    expect((await http.patch(path, { token: members.viewer!.token, body: { name: 'X' } })).status).toBe(403);
    const renamed = await http.patch<OrgBody>(path, { token: members.admin!.token, body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    expect((await http.patch(path, { token: members.admin!.token, body: { name: 'Y', slug: 'z' } })).status).toBe(400);

    expect((await http.delete(`${path}?confirm=${org.slug}`, { token: members.admin!.token })).status).toBe(403);
    expect((await http.delete(`${path}?confirm=wrong`, { token: members.owner!.token })).status).toBe(400);
    expect((await http.delete(path, { token: members.owner!.token })).status).toBe(400);
    expect((await http.delete(`${path}?confirm=${org.slug}`, { token: members.owner!.token })).status).toBe(204);
    expect(await platform.services.db('organizations').where({ id: org.id }).first()).toBeUndefined();
    expect(await platform.services.db('memberships').where({ organization_id: org.id })).toEqual([]);
    expect(await auditRows(org.id, 'organization.delete')).toHaveLength(1);
    // The token still names the deleted organization: it no longer opens anything there.
    expect((await http.get(path, { token: members.owner!.token })).status).toBe(403);
  });
});

describe('members', () => {
  let org: Awaited<ReturnType<typeof makeOrg>>['org'];
  let members: Partial<Record<string, Member>>;
  const path = (suffix = '') => `/api/v1/organizations/${org.slug}/members${suffix}`;

  beforeEach(async () => {
    ({ org, members } = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer']));
  });

  it('lists members with their roles for any member', async () => {
    const res = await http.get<PageBody<MemberBody>>(path(), { token: members.viewer!.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((m) => m.role).sort()).toEqual(['admin', 'member', 'owner', 'viewer']);
  });

  it('changes a role, audits member.role.change, and the change applies to the next request', async () => {
    const member = members.member!;
    const res = await http.patch<MemberBody>(path(`/${member.user.id}`), {
      token: members.admin!.token,
      body: { role: 'viewer' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: member.user.id, role: 'viewer' });
    const [entry] = await auditRows(org.id, 'member.role.change');
    expect(entry).toMatchObject({
      category: 'role_changes',
      resource_id: member.user.id,
      actor: members.admin!.user.email,
      details: { email: member.user.email, from: 'member', to: 'viewer' },
    });
    // The member's token still says "member"; the membership as it is now decides.
    const promoted = await http.patch(path(`/${members.viewer!.user.id}`), {
      token: members.admin!.token,
      body: { role: 'admin' },
    });
    expect(promoted.status).toBe(200);
    expect(
      (await http.get(`/api/v1/organizations/${org.slug}/invitations`, { token: members.viewer!.token })).status,
    ).toBe(200);
  });

  it('keeps owners in the hands of owners and always keeps one owner', async () => {
    const owner = members.owner!;
    const asAdmin = await http.patch(path(`/${owner.user.id}`), {
      token: members.admin!.token,
      body: { role: 'viewer' },
    });
    expect(asAdmin.status).toBe(403);
    const promote = await http.patch(path(`/${members.member!.user.id}`), {
      token: members.admin!.token,
      body: { role: 'owner' },
    });
    expect(promote.status).toBe(403);
    expect((await http.delete(path(`/${owner.user.id}`), { token: members.admin!.token })).status).toBe(403);

    const lastDemote = await http.patch(path(`/${owner.user.id}`), { token: owner.token, body: { role: 'admin' } });
    expect(lastDemote.status).toBe(409);
    expect(lastDemote.body).toEqual({ error: 'an organization must keep at least one owner' });
    expect((await http.delete(path(`/${owner.user.id}`), { token: owner.token })).status).toBe(409);

    expect(
      (await http.patch(path(`/${members.admin!.user.id}`), { token: owner.token, body: { role: 'owner' } })).status,
    ).toBe(200);
    expect((await http.patch(path(`/${owner.user.id}`), { token: owner.token, body: { role: 'admin' } })).status).toBe(
      200,
    );
    const owners = await platform.services.db('memberships').where({ organization_id: org.id, role: 'owner' });
    expect(owners.map((o: { user_id: string }) => o.user_id)).toEqual([members.admin!.user.id]);
  });

  it('two owners demoting each other at once leave exactly one owner', async () => {
    const second = members.admin!;
    await platform.services
      .db('memberships')
      .where({ organization_id: org.id, user_id: second.user.id })
      .update({ role: 'owner' });
    const [a, b] = await Promise.all([
      http.patch(path(`/${second.user.id}`), { token: members.owner!.token, body: { role: 'member' } }),
      http.patch(path(`/${members.owner!.user.id}`), { token: second.token, body: { role: 'member' } }),
    ]);
    // The loser is no longer an owner (nor an admin) once it holds the lock, or already when it is authorized.
    const [winner, loser] = a.status === 200 ? [members.owner!, b] : [second, a];
    expect([a.status, b.status].sort()).toEqual([200, 403]);
    expect(loser.body).toEqual({ error: 'this action requires the admin role' });
    const owners = await platform.services.db('memberships').where({ organization_id: org.id, role: 'owner' });
    expect(owners.map((o: { user_id: string }) => o.user_id)).toEqual([winner.user.id]);
  });

  it('removes a member, who then loses access at once', async () => {
    const viewer = members.viewer!;
    const res = await http.delete(path(`/${viewer.user.id}`), { token: members.admin!.token });
    expect(res.status).toBe(204);
    expect((await auditRows(org.id, 'member.remove'))[0]).toMatchObject({ category: 'member_management' });
    const after = await http.get(`/api/v1/organizations/${org.slug}`, { token: viewer.token });
    expect(after.status).toBe(403);
    expect(after.body).toEqual({ error: 'you are not a member of the active organization' });
    expect((await http.delete(path(`/${viewer.user.id}`), { token: members.admin!.token })).status).toBe(404);
    expect((await http.delete(path('/not-a-uuid'), { token: members.admin!.token })).status).toBe(400);
  });

  it('requires an active organization for organization routes', async () => {
    const token = await tokenFor(platform, members.owner!.user, null, null);
    const res = await http.get(path(), { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'missing organization context' });
  });
});
