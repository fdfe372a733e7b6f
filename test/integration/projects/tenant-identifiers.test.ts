import { addMember, makeOrg, makeUser } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';

/**
 * Issue 32 trap: tenants had two ids and routes took different identifiers (release: project tenant id; bulk update
 * and promotion: slugs; rollback path: id). Every route now takes the same three names of a tenant: its project
 * tenant id, its catalogue tenant id or its slug (src/projects/tenant-ref.ts).
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
interface Tenant {
  id: string;
  catalogueTenantId: string;
  slug: string;
  projectSlug: string;
}
let globex: Tenant;
let acmeInShop: Tenant;

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  const shop = await makeProject(platform, owner, 'shop', ['acme', 'globex']);
  await makeProject(platform, owner, 'blog', ['acme']);
  globex = (await http.get<Tenant>(`/api/v2/tenants/${shop.globex}`, { token: owner })).body;
  acmeInShop = (await http.get<Tenant>(`/api/v2/tenants/${shop.acme}`, { token: owner })).body;
}, 120_000);
afterAll(() => platform.close());

const namesOf = (t: Tenant) => [t.id, t.catalogueTenantId, t.slug, t.id.toUpperCase()];

describe('one tenant identifier on every route', () => {
  it('GET /api/v2/tenants/{tenant} finds the same tenant by id, catalogue id or slug', async () => {
    for (const name of namesOf(globex)) {
      const res = await http.get<Tenant>(`/api/v2/tenants/${name}`, { token: owner });
      expect([name, res.status, res.body.id]).toEqual([name, 200, globex.id]);
    }
  });

  it('a slug two projects share answers 400 naming the projects and their tenant ids; nothing answers 404', async () => {
    const res = await http.get<{ error: string }>('/api/v2/tenants/acme', { token: owner });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^tenant acme is in several projects; name it by its project tenant id \(blog: /);
    expect(res.body.error).toContain(`shop: ${acmeInShop.id}`);
    expect((await http.get<Tenant>(`/api/v2/tenants/${acmeInShop.id}`, { token: owner })).body.slug).toBe('acme');
    const missing = await http.get('/api/v2/tenants/initech', { token: owner });
    expect([missing.status, missing.body]).toEqual([404, { error: 'tenant not found' }]);
  });

  it('release creation and the release list take any of the names', async () => {
    for (const name of namesOf(globex)) {
      // An environment of nothing: the tenant check passes first, then the environment answers, nothing is created.
      const res = await http.post('/api/v2/projects/shop/releases', {
        token: owner,
        body: { environment: 'nope', tenantId: name, title: 't' },
      });
      expect([name, res.status, res.body]).toEqual([
        name,
        400,
        { error: 'environment nope is not an environment of this project' },
      ]);
      const listed = await http.get(`/api/v2/projects/shop/releases?tenantId=${name}`, { token: owner });
      expect(listed.status).toBe(200);
    }
    const stranger = await http.post('/api/v2/projects/shop/releases', {
      token: owner,
      body: { environment: 'dev', tenantId: 'initech', title: 't' },
    });
    expect([stranger.status, stranger.body]).toEqual([
      400,
      { error: 'tenantId initech is not a tenant of this project' },
    ]);
  });

  it('the rollback and pin routes take any of the names', async () => {
    for (const name of namesOf(globex)) {
      const pin = await http.get(`/api/v2/tenants/${name}/envs/dev/pin`, { token: owner });
      expect([name, pin.status, pin.body]).toEqual([name, 404, { error: 'globex/dev is not pinned' }]);
    }
  });

  it('bulk update preview and approval policies take ids as well as slugs, and store one form', async () => {
    for (const name of namesOf(globex)) {
      const preview = await http.post<{ error?: string }>('/api/v2/projects/shop/bulk-update/preview', {
        token: owner,
        body: { workload: 'web', pairs: [{ tenant: name, environment: 'dev' }], tag: '2.0.0' },
      });
      expect([name, preview.status]).toEqual([name, 200]);
    }
    const policy = await http.post<{ tenantSelector?: unknown; tenantIds?: unknown }>('/api/v2/approval-policies', {
      token: owner,
      body: {
        project: 'shop',
        name: 'prod gate',
        requiredApprovals: 1,
        eligibleApprovers: { roles: ['admin'] },
        tenantSelector: { tenantIds: ['globex', globex.catalogueTenantId] },
      },
    });
    expect(policy.status).toBe(201);
    expect(JSON.stringify(policy.body)).toContain(`["${globex.id}"]`);
  });

  it('a grant on the project tenant id applies whichever name the path uses', async () => {
    const viewer = await makeUser(platform);
    const token = await addMember(platform, org.org, viewer.user, 'viewer');
    const rename = (name: string) => http.patch(`/api/v2/tenants/${name}`, { token, body: { name: 'Globex' } });
    expect((await rename('globex')).status).toBe(403);
    const granted = await http.post('/api/v2/permissions', {
      token: owner,
      body: {
        subjectType: 'user',
        subjectId: viewer.user.id,
        resourceType: 'tenant',
        resourceId: globex.id,
        role: 'admin',
      },
    });
    expect(granted.status).toBe(201);
    for (const name of namesOf(globex)) expect([name, (await rename(name)).status]).toEqual([name, 200]);
  });

  it('an unsupported Kubernetes version lists the supported ones', async () => {
    const res = await http.post('/api/v2/projects/shop/environments', {
      token: owner,
      body: { environment: 'qa', kubernetesVersion: '1.24' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error:
        'unsupported Kubernetes version 1.24: supported versions are 1.25, 1.26, 1.27, 1.28, 1.29, 1.30, 1.31, 1.32',
    });
  });
});
