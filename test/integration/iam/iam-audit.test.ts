import { makeOrg, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

interface Entry {
  action: string;
  category: string;
  actor: string;
  status: string;
}
interface Report {
  total: number;
  byCategory: Record<string, number>;
  byOutcome: Record<string, number>;
  byActor: { actor: string; actorType: string; count: number }[];
  byAction: Record<string, number>;
  from: string;
  to: string;
}

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let owner: Member;
let admin: Member;
let member: Member;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  const made = await makeOrg(platform, ['owner', 'admin', 'member']);
  ({ org } = made);
  owner = made.members.owner!;
  admin = made.members.admin!;
  member = made.members.member!;
  // IAM changes (role change, team, grant) and one configuration change that the IAM views must leave out.
  const members = `/api/v1/organizations/${org.slug}/members`;
  expect(
    (await http.patch(`${members}/${member.user.id}`, { token: admin.token, body: { role: 'viewer' } })).status,
  ).toBe(200);
  const team = await http.post<{ id: string }>('/api/v2/teams', { token: owner.token, body: { slug: 'a', name: 'A' } });
  expect(team.status).toBe(201);
  expect((await http.post('/api/v2/org/environments', { token: admin.token, body: { slug: 'dev' } })).status).toBe(201);
});
afterAll(() => platform.close());

describe('GET /api/v2/iam/audit-events', () => {
  it('returns IAM categories only, newest first', async () => {
    const res = await http.get<{ items: Entry[] }>('/api/v2/iam/audit-events', { token: admin.token });
    expect(res.status).toBe(200);
    const actions = res.body.items.map((e) => e.action);
    expect(actions).toEqual(['team.create', 'member.role.change']);
    expect(res.body.items.map((e) => e.category)).toEqual(['member_management', 'role_changes']);
  });

  it('filters by an IAM category and refuses the others', async () => {
    const roles = await http.get<{ items: Entry[] }>('/api/v2/iam/audit-events?category=role_changes', {
      token: admin.token,
    });
    expect(roles.body.items.map((e) => e.action)).toEqual(['member.role.change']);
    const config = await http.get('/api/v2/iam/audit-events?category=configuration', { token: admin.token });
    expect(config.status).toBe(400);
    expect(String((config.body as { error: string }).error)).toContain('category must be one of member_management');
  });

  it('pages with a cursor and is for admins only', async () => {
    const first = await http.get<{ items: Entry[]; nextCursor: string }>('/api/v2/iam/audit-events?limit=1', {
      token: admin.token,
    });
    expect(first.body.items.map((e) => e.action)).toEqual(['team.create']);
    const second = await http.get<{ items: Entry[]; nextCursor: string | null }>(
      `/api/v2/iam/audit-events?limit=1&cursor=${first.body.nextCursor}`,
      { token: admin.token },
    );
    expect(second.body.items.map((e) => e.action)).toEqual(['member.role.change']);
    expect(second.body.nextCursor).toBeNull();
    expect((await http.get('/api/v2/iam/audit-events', { token: member.token })).status).toBe(403);
  });
});

describe('GET /api/v2/iam/audit-report', () => {
  it('summarises the period by category, actor, outcome and action', async () => {
    const res = await http.get<Report>('/api/v2/iam/audit-report', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.byCategory).toEqual({ member_management: 1, role_changes: 1 });
    expect(res.body.byOutcome).toEqual({ success: 2 });
    expect(res.body.byActor).toHaveLength(2);
    expect(res.body.byActor).toEqual(
      expect.arrayContaining([
        { actor: admin.user.email, actorType: 'user', count: 1 },
        { actor: owner.user.email, actorType: 'user', count: 1 },
      ]),
    );
    expect(res.body.byAction).toMatchObject({ 'team.create': 1, 'member.role.change': 1 });
    expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(30 * 86_400_000);
  });

  it('takes an explicit period and rejects inverted or overlong ones', async () => {
    const past = await http.get<Report>('/api/v2/iam/audit-report?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z', {
      token: admin.token,
    });
    expect(past.body).toMatchObject({ total: 0, byCategory: {}, byActor: [] });
    const inverted = await http.get('/api/v2/iam/audit-report?from=2021-01-01T00:00:00Z&to=2020-01-01T00:00:00Z', {
      token: admin.token,
    });
    expect(inverted.status).toBe(400);
    const long = await http.get('/api/v2/iam/audit-report?from=2020-01-01T00:00:00Z&to=2022-01-01T00:00:00Z', {
      token: admin.token,
    });
    expect(long.status).toBe(400);
    expect((await http.get('/api/v2/iam/audit-report?format=csv', { token: admin.token })).status).toBe(400);
  });

  it('refuses an instant the schema accepts but no clock has (a leap second) with 400, not 500', async () => {
    for (const query of ['from=2016-12-31T23:59:60Z', 'to=2016-12-31T23:59:60Z']) {
      const res = await http.get(`/api/v2/iam/audit-report?${query}`, { token: admin.token });
      expect([query, res.status, res.body]).toEqual([query, 400, { error: 'from and to must be valid instants' }]);
    }
  });
});
