import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { withDefaults } from '../../../src/projects/workload-spec';
import { makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';

/**
 * Limits are refused where data enters and never applied where data is read (docs/operations.md "Limits"): a project
 * with more workloads than a reader used to take releases and generates every one, and the workload past the
 * documented limit is refused with a message naming it.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let owner: string;
let projectId: string;
let organizationId: string;

const name = (i: number) => `w${String(i).padStart(4, '0')}`;

/** Workloads straight into the table (the HTTP path is covered by the last ones), `from` to `to` exclusive. */
async function seedWorkloads(from: number, to: number) {
  const rows = [];
  for (let i = from; i < to; i++) {
    const spec = withDefaults({ image: { repository: `registry.example.com/shop/${name(i)}`, tag: '1.0.0' } });
    rows.push({
      organization_id: organizationId,
      project_id: projectId,
      name: name(i),
      spec: JSON.stringify(spec),
      overrides: '{}',
    });
  }
  await platform.services.db.batchInsert('workloads', rows, 500);
}

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  const org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  organizationId = org.org.id;
  await makeProject(platform, owner, 'shop', ['acme'], { name: name(0) });
  const project = await http.get<{ id: string }>('/api/v2/projects/shop', { token: owner });
  projectId = project.body.id;
}, 120_000);
afterAll(() => platform.close());

describe('workloads per project', () => {
  it('a release names the 205th workload and generate writes all 205 (readers once stopped at 200)', async () => {
    await seedWorkloads(1, 204);
    const last = await http.post(`/api/v2/projects/shop/workloads`, {
      token: owner,
      body: { name: name(204), image: { repository: 'registry.example.com/shop/last', tag: '1.0.0' } },
    });
    expect([last.status, last.text]).toEqual([201, expect.any(String)]);

    const generate = await http.post<{ commit: string; validation: { summary: { errors: number } } }>(
      '/api/v2/projects/shop/delivery/generate',
      { token: owner, body: {} },
    );
    expect([generate.status, generate.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
    const tree = await http.get<{ items: { path: string }[] }>(
      `/api/v2/projects/shop/files?path=applications/acme/dev`,
      { token: owner },
    );
    expect([tree.status, tree.text.slice(0, 200)]).toEqual([200, expect.any(String)]);
    expect(tree.body.items.map((f) => f.path)).toContain(`applications/acme/dev/${name(204)}.yaml`);
    expect(tree.body.items).toHaveLength(205);

    const releases = releaseClient(platform);
    const release = await releases.create(owner, 'shop', {
      environment: 'dev',
      tenantId: 'acme',
      title: 'the last workload',
      changes: [{ workload: name(204), tag: '2.0.0' }],
    });
    expect([release.status, release.text]).toEqual([201, expect.any(String)]);
    // Followed to where it waits for a person or the controller: validated and committed, not left running while the
    // file stops its worker.
    const settled = await releases.until(
      owner,
      release.body.id,
      (r) => !['Validating', 'Deploying'].includes(r.status),
      60_000,
    );
    // The reason rides along so that a failure shows it.
    expect({ status: settled.status, reason: settled.statusReason }).toMatchObject({
      status: expect.stringMatching(/^(AwaitingDeploy|Syncing)$/),
    });
  }, 120_000);

  it('refuses the workload past the documented limit with 409 naming it, and writes nothing', async () => {
    await seedWorkloads(205, 1000);
    const refused = await http.post(`/api/v2/projects/shop/workloads`, {
      token: owner,
      body: { name: 'one-too-many', image: { repository: 'registry.example.com/shop/x', tag: '1.0.0' } },
    });
    expect([refused.status, refused.body]).toEqual([
      409,
      { error: 'a project holds at most 1000 workloads (limit "workloads per project")' },
    ]);
    const listed = await http.get<{ items: unknown[] }>('/api/v2/projects/shop/workloads', { token: owner });
    expect(listed.body.items).toHaveLength(1000);
  }, 60_000);
});

describe('tenants per project', () => {
  it('refuses the tenant past the documented limit with 409 naming it', async () => {
    const { db } = platform.services;
    const slugs = Array.from({ length: 999 }, (_, i) => `t${i}`);
    const catalogue = (await db('org_tenants')
      .insert(slugs.map((slug) => ({ organization_id: organizationId, slug, name: slug })))
      .returning(['id', 'slug'])) as { id: string; slug: string }[];
    const rows = catalogue.map((c) => ({
      organization_id: organizationId,
      project_id: projectId,
      org_tenant_id: c.id,
      slug: c.slug,
      name: c.slug,
    }));
    await db.batchInsert('project_tenants', rows, 500);
    const refused = await http.post(`/api/v2/projects/shop/tenants`, {
      token: owner,
      body: { slug: 'late', name: 'late' },
    });
    expect([refused.status, refused.body]).toEqual([
      409,
      { error: 'a project holds at most 1000 tenants (limit "tenants per project")' },
    ]);
    const listed = await http.get<{ items: unknown[] }>('/api/v2/projects/shop/tenants', { token: owner });
    expect(listed.body.items).toHaveLength(1000);
  }, 60_000);
});
