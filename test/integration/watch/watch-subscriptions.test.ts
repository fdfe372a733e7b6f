import { makeProject } from '../gitops/gitops-harness';
import { twoOrgs } from '../registry/two-orgs';

const s = twoOrgs(['owner', 'member', 'viewer']);
const URL = '/api/v2/projects/shop/watch/subscriptions';
const tokenOf = (role: 'owner' | 'member' | 'viewer') => s.org.members[role]!.token;

const valid = () => ({
  workload: 'web',
  repository: { source: 'platform', name: 'shop/web' },
  policy: { kind: 'semver', range: '>=1.0.0 <2.0.0' },
  environments: ['dev'],
  tenants: ['acme'],
});

beforeAll(async () => {
  await makeProject(s.platform, tokenOf('owner'), 'shop', ['acme', 'globex']);
}, 120_000);

describe('watch subscriptions API', () => {
  it('a member creates one (audited in its transaction), a viewer lists it, delete removes it with an entry', async () => {
    const res = await s.http.post<{ id: string; policy: unknown; tenants: string[] }>(URL, {
      token: tokenOf('member'),
      body: valid(),
    });
    expect([res.status, res.text]).toEqual([201, expect.any(String)]);
    expect(res.body.policy).toEqual({ kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false });
    expect(res.body.tenants).toEqual(['acme']);
    const audit = await s.platform.services
      .db('audit_log')
      .where({ action: 'watch.subscription.create', resource_id: res.body.id });
    expect(audit).toHaveLength(1);
    expect(audit[0].organization_id).toBe(s.org.org.id);

    const list = await s.http.get<{ items: { id: string; workload: string }[] }>(URL, { token: tokenOf('viewer') });
    expect(list.status).toBe(200);
    expect(list.body.items.map((i) => [i.id, i.workload])).toEqual([[res.body.id, 'web']]);

    // The same workload and repository again: 409.
    const again = await s.http.post(URL, { token: tokenOf('member'), body: valid() });
    expect(again.status).toBe(409);

    expect((await s.http.delete(`${URL}/${res.body.id}`, { token: tokenOf('viewer') })).status).toBe(403);
    expect((await s.http.delete(`${URL}/${res.body.id}`, { token: tokenOf('member') })).status).toBe(204);
    expect((await s.http.delete(`${URL}/${res.body.id}`, { token: tokenOf('member') })).status).toBe(404);
    const deleted = await s.platform.services
      .db('audit_log')
      .where({ action: 'watch.subscription.delete', resource_id: res.body.id });
    expect(deleted).toHaveLength(1);
  });

  it('a viewer cannot create one', async () => {
    const res = await s.http.post(URL, { token: tokenOf('viewer'), body: valid() });
    expect(res.status).toBe(403);
  });

  it.each([
    [{ policy: { kind: 'semver', range: '>=x.y' } }, /policy.range is not a valid semver range/],
    [{ policy: { kind: 'regex', pattern: '(a)\\1', order: 'numeric' } }, /backreference/],
    [{ policy: { kind: 'digest' } }, /./],
    [{ environments: ['staging'] }, /environments: not environments of project shop: staging/],
    [{ tenants: ['initech'] }, /tenants: not tenants of project shop: initech/],
    [{ workload: 'api' }, /workload: api is not a workload of project shop/],
    [{ repository: { source: 'docker.io', name: 'x/y' } }, /./],
  ])('refuses %j with a 400 naming the problem', async (change, message) => {
    const res = await s.http.post<{ error: string }>(URL, {
      token: tokenOf('member'),
      body: { ...valid(), ...change },
    });
    expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(message)]);
  });

  it("another organization's caller gets 404 and sees nothing", async () => {
    const other = s.other.members.owner!.token;
    expect((await s.http.get(URL, { token: other })).status).toBe(404);
    expect((await s.http.post(URL, { token: other, body: valid() })).status).toBe(404);
  });
});
