import { controllerSimulator, wholeSecond, type ControllerSimulator } from '../../helpers/controller-simulator';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneUrl, makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';
import { controllerEvent } from '../webhooks/controller-client';

/**
 * Deployment truth (issue 27) with a controller that behaves like Argo CD with the documented triggers: it reports
 * only the Applications whose rendered content changed, two reports of one sync in the same second.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let releases: ReturnType<typeof releaseClient>;
let owner: string;
let controllerToken: string;
let sim: ControllerSimulator;
let tenants: Record<string, string>;

interface Cell {
  tenant: string;
  environment: string;
  service: string;
  application: string;
  desired: { version: string | null; revision: string; digest: string | null; by: { kind: string } } | null;
  live: { version: string | null; revision: string; syncStatus: string; healthStatus: string } | null;
  current: boolean;
  healthySince: string | null;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  releases = releaseClient(platform);
  const org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  tenants = await makeProject(platform, owner, 'shop', ['acme', 'globex', 'initech']);
  const api = await http.post('/api/v2/projects/shop/workloads', {
    token: owner,
    body: { name: 'api', image: { repository: 'registry.example.com/shop/api', tag: '2.0.0' } },
  });
  expect(api.status).toBe(201);
  const key = await http.post<{ key: string }>('/api/v2/projects/shop/api-keys', {
    token: owner,
    body: { name: 'controller', scopes: ['read'] },
  });
  expect(key.status).toBe(201);
  controllerToken = await releases.controller.tokenFor(owner);
  sim = controllerSimulator({
    cloneUrl: cloneUrl(platform, org.org.slug, 'shop', key.body.key),
    baseUrl: platform.url,
    controllerToken,
  });
  expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
  // The first look syncs every Application of the generated tree.
  const first = await sim.refresh();
  expect(first.filter((r) => r.healthStatus === 'Healthy')).toHaveLength(3 * 2 * 2);
  expect(first.every((r) => r.status === 200)).toBe(true);
}, 180_000);
afterAll(async () => {
  await sim.close();
  await platform.close();
});

async function release(tenant: string, environment: string, changes: Record<string, unknown>[]) {
  const created = await releases.create(owner, 'shop', { environment, tenantId: tenants[tenant], title: 't', changes });
  expect(created.status).toBe(201);
  return releases.status(owner, created.body.id, 'Syncing');
}

async function matrix(query = ''): Promise<Cell[]> {
  const items: Cell[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { items: Cell[]; nextCursor: string | null } } = await http.get(
      `/api/v2/projects/shop/deployments?limit=5${query}${cursor ? `&cursor=${cursor}` : ''}`,
      { token: owner },
    );
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}

describe('sync reports as a controller sends them', () => {
  it('a release changing one of two workloads turns Healthy when only the changed Application reports', async () => {
    const syncing = await release('acme', 'dev', [{ workload: 'web', tag: '1.1.0' }]);
    const sent = await sim.refresh();
    // Only web changed; its two reports carry the same whole second, Progressing first.
    expect(sent.map((r) => [r.application, r.healthStatus, r.status])).toEqual([
      ['shop.acme.dev.web', 'Progressing', 200],
      ['shop.acme.dev.web', 'Healthy', 200],
    ]);
    expect(sent[0]!.timestamp).toBe(sent[1]!.timestamp);
    const healthy = await releases.status(owner, syncing.id, 'Healthy');
    expect(healthy.sync).toMatchObject({ status: 'Synced', health: 'Healthy' });
  });

  it("shows the controller's latest report at the release's commit while it syncs, never an older revision's", async () => {
    const first = await release('globex', 'prod', [{ workload: 'api', tag: '2.3.0' }]);
    await sim.refresh();
    await releases.status(owner, first.id, 'Healthy');
    const syncing = await release('globex', 'prod', [{ workload: 'api', tag: '2.4.0' }]);
    // The previous version's Synced/Healthy is not this release's progress.
    const before = await releases.get(owner, syncing.id);
    expect(before.sync).toEqual({ status: null, health: null, service: null, reportedAt: null });
    expect(before.waitingFor).toEqual([
      { service: 'api', syncStatus: null, healthStatus: null, revision: null, reportedAt: null },
    ]);
    // Argo CD's on-sync-succeeded: Synced/Progressing at the commit, shown while the release waits.
    const at = new Date(wholeSecond(new Date(Date.now() + 1000)));
    const progressing = controllerEvent('shop.globex.prod.api', syncing.commitSha!, 'Progressing', 'Synced', at);
    expect((await releases.controller.post(controllerToken, progressing)).status).toBe(200);
    const during = await releases.get(owner, syncing.id);
    expect(during.status).toBe('Syncing');
    expect(during.sync).toEqual({
      status: 'Synced',
      health: 'Progressing',
      service: 'api',
      reportedAt: at.toISOString(),
    });
    expect(during.waitingFor).toEqual([
      expect.objectContaining({ service: 'api', syncStatus: 'Synced', healthStatus: 'Progressing' }),
    ]);
    const healthy = controllerEvent('shop.globex.prod.api', syncing.commitSha!, 'Healthy', 'Synced', at);
    expect((await releases.controller.post(controllerToken, healthy)).status).toBe(200);
    const done = await releases.status(owner, syncing.id, 'Healthy');
    expect(done.sync).toMatchObject({ status: 'Synced', health: 'Healthy' });
    expect(done.waitingFor).toEqual([]);
  });

  it('a report of another revision does not end the release; the awaited commit or a later one does', async () => {
    const first = await release('globex', 'dev', [{ workload: 'api', tag: '2.1.0' }]);
    await sim.refresh();
    const before = await releases.status(owner, first.id, 'Healthy');
    const syncing = await release('globex', 'dev', [{ workload: 'api', tag: '2.2.0' }]);
    const other = await releases.controller.post(
      controllerToken,
      controllerEvent('shop.globex.dev.api', before.commitSha!, 'Healthy', 'Synced', new Date()),
    );
    expect(other.status).toBe(200);
    expect(other.body.release).toBeNull();
    const waiting = await releases.get(owner, syncing.id);
    expect(waiting.status).toBe('Syncing');
    // What the controller said of the earlier commit is not shown as this one's progress.
    expect(waiting.waitingFor).toEqual([
      expect.objectContaining({ service: 'api', syncStatus: null, healthStatus: null, revision: null }),
    ]);
    // A later commit (another tenant's release) carries this one: a report at it counts.
    const later = await release('initech', 'dev', [{ workload: 'web', tag: '1.9.0' }]);
    const at = wholeSecond(new Date(Date.now() + 1000));
    for (const health of ['Progressing', 'Healthy']) {
      const res = await releases.controller.post(
        controllerToken,
        controllerEvent('shop.globex.dev.api', later.commitSha!, health, 'Synced', new Date(at)),
      );
      expect(res.status).toBe(200);
    }
    await releases.status(owner, syncing.id, 'Healthy');
    await sim.refresh();
    await releases.status(owner, later.id, 'Healthy');
  });

  it('takes the same report twice as one, and refuses a report of an older commit (409)', async () => {
    const syncing = await release('acme', 'prod', [{ workload: 'api', tag: '2.5.0' }]);
    await sim.refresh();
    await releases.status(owner, syncing.id, 'Healthy');
    const again = controllerEvent('shop.acme.prod.api', syncing.commitSha!, 'Healthy', 'Synced', new Date());
    expect((await releases.controller.post(controllerToken, again)).status).toBe(200);
    const same = { ...again, app: { ...again.app, metadata: { ...again.app.metadata, namespace: 'argo' } } };
    expect((await releases.controller.post(controllerToken, same)).status).toBe(200);
    const generated = await platform.services
      .db('deployed_target_events')
      .where({ kind: 'commit', service: 'api', environment: 'prod', tenant_id: tenants.acme })
      .orderBy('position')
      .first('revision');
    const older = controllerEvent('shop.acme.prod.api', generated.revision, 'Degraded', 'Synced', new Date());
    expect((await releases.controller.post(controllerToken, older)).status).toBe(409);
    const [cell] = await matrix('&tenant=acme&environment=prod&service=api');
    expect(cell!.live).toEqual(expect.objectContaining({ revision: syncing.commitSha, healthStatus: 'Healthy' }));
  });
});

describe('the deployments matrix', () => {
  it('matches a fresh clone plus the simulator reports, tenant by tenant', async () => {
    const cells = await matrix();
    expect(cells).toHaveLength(3 * 2 * 2);
    const digests = sim.digests();
    const lastHealthy = new Map<string, string>();
    for (const r of sim.sent)
      if (r.healthStatus === 'Healthy' || r.syncStatus === 'Error') lastHealthy.set(r.application, r.revision);
    for (const cell of cells) {
      expect({ app: cell.application, digest: cell.desired?.digest }).toEqual({
        app: cell.application,
        digest: digests.get(cell.application),
      });
      expect(cell.live?.revision).toBe(lastHealthy.get(cell.application) ?? expect.anything());
      expect(cell.current).toBe(true);
    }
    const acmeDevWeb = cells.find((c) => c.application === 'shop.acme.dev.web')!;
    expect(acmeDevWeb.desired).toEqual(
      expect.objectContaining({ version: '1.1.0', by: expect.objectContaining({ kind: 'release' }) }),
    );
    expect(acmeDevWeb.live).toEqual(
      expect.objectContaining({ version: '1.1.0', syncStatus: 'Synced', healthStatus: 'Healthy' }),
    );
    expect(acmeDevWeb.healthySince).not.toBeNull();
    const initechProd = cells.find((c) => c.application === 'shop.initech.prod.api')!;
    expect(initechProd.desired).toEqual(
      expect.objectContaining({ version: '2.0.0', by: expect.objectContaining({ kind: 'generate' }) }),
    );
    expect(await matrix('&tenant=globex&environment=dev')).toHaveLength(2);
  });
});
