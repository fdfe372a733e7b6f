import { makeInstanceAdmin, makeOrg, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

interface Env {
  id: string;
  slug: string;
  name: string;
  production: boolean;
  position: number;
}
interface Features {
  plan: string;
  features: Record<string, { enabled: boolean; requiredPlan: string }>;
}

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let admin: Member;
let viewer: Member;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  const made = await makeOrg(platform, ['owner', 'admin', 'viewer']);
  org = made.org;
  admin = made.members.admin!;
  viewer = made.members.viewer!;
});
afterAll(() => platform.close());

const slugs = async () =>
  (await http.get<{ items: Env[] }>('/api/v2/org/environments', { token: viewer.token })).body.items.map((e) => [
    e.slug,
    e.position,
  ]);

describe('environment catalogue', () => {
  it('keeps an ordered catalogue with a production flag', async () => {
    for (const body of [{ slug: 'dev' }, { slug: 'production', name: 'Production', production: true }]) {
      expect((await http.post('/api/v2/org/environments', { token: admin.token, body })).status).toBe(201);
    }
    const staging = await http.post<Env>('/api/v2/org/environments', {
      token: admin.token,
      body: { slug: 'staging', position: 1 },
    });
    expect(staging.body).toMatchObject({ slug: 'staging', name: 'staging', production: false, position: 1 });
    expect(await slugs()).toEqual([
      ['dev', 0],
      ['staging', 1],
      ['production', 2],
    ]);
    const prod = await http.get<Env>('/api/v2/org/environments/production', { token: viewer.token });
    expect(prod.body).toMatchObject({ production: true, name: 'Production' });

    expect((await http.post('/api/v2/org/environments', { token: admin.token, body: { slug: 'dev' } })).status).toBe(
      409,
    );
    expect((await http.post('/api/v2/org/environments', { token: viewer.token, body: { slug: 'qa' } })).status).toBe(
      403,
    );
  });

  it('reorders with a full permutation only, updates and deletes with positions kept contiguous', async () => {
    const reordered = await http.put<{ items: Env[] }>('/api/v2/org/environments/order', {
      token: admin.token,
      body: { order: ['staging', 'dev', 'production'] },
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.items.map((e) => e.slug)).toEqual(['staging', 'dev', 'production']);
    const partial = await http.put('/api/v2/org/environments/order', { token: admin.token, body: { order: ['dev'] } });
    expect(partial.status).toBe(400);
    const dupes = await http.put('/api/v2/org/environments/order', {
      token: admin.token,
      body: { order: ['dev', 'dev', 'production'] },
    });
    expect(dupes.status).toBe(400);

    const patched = await http.patch<Env>('/api/v2/org/environments/staging', {
      token: admin.token,
      body: { production: true },
    });
    expect(patched.body).toMatchObject({ slug: 'staging', production: true });
    expect(
      (await http.patch('/api/v2/org/environments/staging', { token: admin.token, body: { position: 0 } })).status,
    ).toBe(400);
    expect((await http.delete('/api/v2/org/environments/staging', { token: admin.token })).status).toBe(204);
    expect(await slugs()).toEqual([
      ['dev', 0],
      ['production', 1],
    ]);
    expect((await http.get('/api/v2/org/environments/staging', { token: viewer.token })).status).toBe(404);
    const actions = (await platform.services
      .db('audit_log')
      .where({ organization_id: org.id, category: 'configuration' })
      .where('action', 'like', 'environment.%')
      .orderBy('seq')
      .pluck('action')) as string[];
    expect(actions).toEqual([
      'environment.create',
      'environment.create',
      'environment.create',
      'environment.reorder',
      'environment.update',
      'environment.delete',
    ]);
  });
});

describe('tenant catalogue', () => {
  it('creates, pages, updates and deletes tenants', async () => {
    const ids: string[] = [];
    for (const slug of ['globex', 'acme', 'initech']) {
      const res = await http.post<{ id: string }>('/api/v2/org/tenants', {
        token: admin.token,
        body: { slug, name: slug.toUpperCase() },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const page = await http.get<{ items: { slug: string }[]; nextCursor: string }>('/api/v2/org/tenants?limit=2', {
      token: viewer.token,
    });
    expect(page.body.items.map((t) => t.slug)).toEqual(['acme', 'globex']);
    const rest = await http.get<{ items: { slug: string }[] }>(
      `/api/v2/org/tenants?limit=2&cursor=${page.body.nextCursor}`,
      { token: viewer.token },
    );
    expect(rest.body.items.map((t) => t.slug)).toEqual(['initech']);
    const updated = await http.patch(`/api/v2/org/tenants/${ids[0]}`, {
      token: admin.token,
      body: { description: 'Big customer' },
    });
    expect(updated.body).toMatchObject({ slug: 'globex', description: 'Big customer' });
    expect((await http.delete(`/api/v2/org/tenants/${ids[0]}`, { token: viewer.token })).status).toBe(403);
    expect((await http.delete(`/api/v2/org/tenants/${ids[0]}`, { token: admin.token })).status).toBe(204);
    expect((await http.get(`/api/v2/org/tenants/${ids[0]}`, { token: viewer.token })).status).toBe(404);
    expect(
      (await http.post('/api/v2/org/tenants', { token: admin.token, body: { slug: 'acme', name: 'x' } })).status,
    ).toBe(409);
  });
});

describe('plan tiers', () => {
  it('shows what the plan allows and names the plan each feature needs', async () => {
    const res = await http.get<Features>('/api/v2/features', { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.body.plan).toBe('free');
    expect(res.body.features.api_keys).toEqual({ enabled: true, requiredPlan: 'free' });
    expect(res.body.features.escalation_policies).toEqual({ enabled: false, requiredPlan: 'pro' });
    expect(res.body.features.service_accounts).toEqual({ enabled: false, requiredPlan: 'enterprise' });
    await expect(platform.services.plans.require(org.id, 'service_accounts')).rejects.toMatchObject({
      status: 403,
      message: 'Service accounts require the Enterprise plan',
    });
    await expect(platform.services.plans.require(org.id, 'escalation_policies')).rejects.toMatchObject({
      message: 'Escalation policies require the Pro plan',
    });
    await expect(platform.services.plans.require(org.id, 'api_keys')).resolves.toBeUndefined();
  });

  it('lets instance administrators only set the plan, audited with the acting user', async () => {
    const path = `/api/v2/admin/organizations/${org.slug}/plan`;
    const ownerTry = await http.put(path, { token: admin.token, body: { plan: 'enterprise' } });
    expect(ownerTry.status).toBe(403);
    const operator = await makeInstanceAdmin(platform);
    expect((await http.put(path, { token: operator.token, body: { plan: 'platinum' } })).status).toBe(400);
    expect(
      (await http.put('/api/v2/admin/organizations/no-such-org/plan', { token: operator.token, body: { plan: 'pro' } }))
        .status,
    ).toBe(404);
    const res = await http.put(path, { token: operator.token, body: { plan: 'pro' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: org.slug, plan: 'pro' });
    const features = await http.get<Features>('/api/v2/features', { token: viewer.token });
    expect(features.body.plan).toBe('pro');
    expect(features.body.features.escalation_policies?.enabled).toBe(true);
    expect(features.body.features.crd_upload?.enabled).toBe(false);
    const entry = await platform.services
      .db('audit_log')
      .where({ organization_id: org.id, action: 'organization.plan.change' })
      .first();
    expect(entry).toMatchObject({
      actor_type: 'user',
      actor: operator.user.email,
      details: { from: 'free', to: 'pro' },
    });
  });
});
