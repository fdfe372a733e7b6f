import type { ControllerSimulator } from '../../helpers/controller-simulator';
import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { promotionClient } from '../promotions/promotion-harness';
import { releaseClient } from '../releases/release-harness';
import { shapeBHeaders } from '../webhooks/webhook-signing';
import { watchedProject } from './truth-harness';

/**
 * Rollback and promotion read the deployed state (issue 27): what a controller simulator reported Healthy, whatever
 * path deployed it (release, promotion, bulk update, image webhook).
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let releases: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
const sims: ControllerSimulator[] = [];

beforeAll(async () => {
  platform = await startTestPlatform();
  api = promotionClient(platform);
  releases = releaseClient(platform);
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
}, 120_000);
afterAll(async () => {
  for (const sim of sims) await sim.close();
  await platform.close();
});

async function project(slug: string) {
  const watched = await watchedProject(
    platform,
    { slug: org.org.slug, ownerToken: owner },
    slug,
    ['acme'],
    api.controller,
  );
  sims.push(watched.sim);
  return watched;
}

/** A release through the simulator: created, committed, synced by the controller, Healthy. */
async function release(sim: ControllerSimulator, slug: string, tenantId: string, environment: string, tag: string) {
  const created = await releases.create(owner, slug, {
    environment,
    tenantId,
    title: `web ${tag}`,
    changes: [{ workload: 'web', tag }],
  });
  expect(created.status).toBe(201);
  await releases.status(owner, created.body.id, 'Syncing');
  await sim.refresh();
  return releases.status(owner, created.body.id, 'Healthy');
}

async function desiredVersion(slug: string, environment: string) {
  const res = await api.http.get<{ items: { desired: { version: string } | null }[] }>(
    `/api/v2/projects/${slug}/deployments?tenant=acme&environment=${environment}&service=web`,
    { token: owner },
  );
  return res.body.items[0]?.desired?.version ?? null;
}

interface Preview {
  rollbackTo: { releaseId: string | null; kind: string; commitSha: string; versions: Record<string, string> | null };
  changes: { workload: string; tag?: string }[];
}

describe('rollback from the real state', () => {
  it('names the previously verified version after a promotion, a bulk update and a webhook update', async () => {
    const { tenants, sim } = await project('rb');
    await release(sim, 'rb', tenants.acme!, 'prod', '1.1.0');
    const r2 = await release(sim, 'rb', tenants.acme!, 'prod', '1.2.0');
    await release(sim, 'rb', tenants.acme!, 'dev', '1.3.0');
    const preview = async () => {
      const res = await api.http.post<Preview>(`/api/v2/tenants/${tenants.acme}/envs/prod/rollback/preview`, {
        token: owner,
        body: {},
      });
      expect(res.status).toBe(200);
      return res.body;
    };

    const promotion = await api.request(owner, 'rb', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(promotion.status).toBe(201);
    await api.status(owner, promotion.body.id, 'Syncing');
    await sim.refresh();
    await api.status(owner, promotion.body.id, 'Healthy');
    // What runs now is the promotion's 1.3.0: the release before it (r2, 1.2.0), not r1.
    expect(await preview()).toMatchObject({
      rollbackTo: { releaseId: r2.id, kind: 'release', commitSha: r2.commitSha, versions: { web: '1.2.0' } },
      changes: [expect.objectContaining({ workload: 'web', tag: '1.2.0' })],
    });

    const bulk = await api.http.post<{ commit: string }>('/api/v2/projects/rb/bulk-update', {
      token: owner,
      body: { workload: 'web', tag: '1.4.0', pairs: [{ tenant: 'acme', environment: 'prod' }] },
    });
    expect(bulk.status).toBe(200);
    await sim.refresh();
    expect(await preview()).toMatchObject({
      rollbackTo: { releaseId: null, kind: 'promotion', versions: { web: '1.3.0' } },
    });

    const settings = await api.http.put<{ secret: string }>('/api/v2/projects/rb/webhook-settings', {
      token: owner,
      body: { autoUpdateEnvironments: ['prod'], tagFilter: '^[0-9]+\\.[0-9]+\\.[0-9]+$' },
    });
    expect(settings.status).toBe(201);
    const body = JSON.stringify({
      image: 'registry.example.com/shop/web',
      tag: '1.5.0',
      digest: `sha256:${'ab'.repeat(32)}`,
      project: 'rb',
      workload: 'web',
      environments: ['prod'],
      tenants: ['acme'],
      timestamp: new Date().toISOString(),
    });
    const hook = await api.http.post<Record<string, unknown>>('/api/v1/webhooks/image-update', {
      rawBody: body,
      headers: shapeBHeaders(settings.body.secret, body),
    });
    expect({ status: hook.status, body: hook.body }).toEqual({
      status: 200,
      body: expect.objectContaining({ skipped: [] }),
    });
    await eventually(async () => (await desiredVersion('rb', 'prod')) === '1.5.0', 20_000, 'the webhook commit');
    await sim.refresh();
    expect(await preview()).toMatchObject({ rollbackTo: { kind: 'bulk-update', versions: { web: '1.4.0' } } });

    const rollback = await api.http.post<{ id: string; rollbackOf: string | null }>(
      `/api/v2/tenants/${tenants.acme}/envs/prod/rollback`,
      { token: owner, body: { reason: 'bad image' } },
    );
    expect(rollback.status).toBe(201);
    expect(rollback.body.rollbackOf).toBeNull();
    await releases.status(owner, rollback.body.id, 'Syncing');
    await sim.refresh();
    await releases.status(owner, rollback.body.id, 'Healthy');
    expect(await desiredVersion('rb', 'prod')).toBe('1.4.0');
  }, 240_000);
});

describe('a rollback under break-glass', () => {
  it('carries the session id and justification on release.create, rollback.initiate and target.pin', async () => {
    const { tenants, sim } = await project('bgr');
    await release(sim, 'bgr', tenants.acme!, 'prod', '1.1.0');
    await release(sim, 'bgr', tenants.acme!, 'prod', '1.2.0');
    const justification = 'checkout down, roll back now';
    const session = await api.http.post<{ id: string }>('/api/v2/break-glass', {
      token: owner,
      body: { justification, durationMinutes: 5, scope: { projects: ['bgr'] } },
    });
    expect(session.status).toBe(201);
    const rollback = await api.http.post<{ id: string }>(`/api/v2/tenants/${tenants.acme}/envs/prod/rollback`, {
      token: owner,
      body: { reason: justification },
    });
    expect(rollback.status).toBe(201);
    await releases.status(owner, rollback.body.id, 'Syncing');
    const entries = await api.http.get<{ items: { action: string; details: Record<string, unknown> }[] }>(
      `/api/v2/audit-logs?resourceType=release&resourceId=${rollback.body.id}&limit=100`,
      { token: owner },
    );
    const breakGlassOf = (action: string) => entries.body.items.find((e) => e.action === action)?.details.breakGlass;
    for (const action of ['release.create', 'rollback.initiate', 'target.pin', 'release.deploy']) {
      expect({ action, breakGlass: breakGlassOf(action) }).toEqual({
        action,
        breakGlass: { sessionId: session.body.id, justification },
      });
    }
  }, 180_000);
});

describe('verified promotions', () => {
  it('blocks a version never reported Healthy in the source, and clears when the controller reports it', async () => {
    const { sim } = await project('vp');
    const bulk = await api.http.post('/api/v2/projects/vp/bulk-update', {
      token: owner,
      body: { workload: 'web', tag: '2.0.0', pairs: [{ tenant: 'acme', environment: 'dev' }] },
    });
    expect(bulk.status).toBe(200);
    const requested = await api.request(owner, 'vp', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(requested.status).toBe(201);
    const blocked = await api.until(owner, requested.body.id, (p) => p.status === 'Blocked');
    expect(blocked.causes).toEqual([
      expect.objectContaining({
        cause: 'sourceUnverified',
        message: 'dev has not verified acme/web 2.0.0 (not-reported)',
      }),
    ]);
    // The controller syncs dev: the report verifies 2.0.0 and wakes the promotion (its recheck is minutes away).
    await sim.refresh();
    await api.status(owner, requested.body.id, 'Syncing', 15_000);
    await sim.refresh();
    await api.status(owner, requested.body.id, 'Healthy');
  }, 120_000);

  it('with a soak time, clears only once the version has been Healthy that long', async () => {
    const { sim } = await project('soak');
    const soak = await api.http.put('/api/v2/projects/soak/soak-times/dev', {
      token: owner,
      body: { seconds: 4 },
    });
    expect(soak.status).toBe(200);
    const bulk = await api.http.post('/api/v2/projects/soak/bulk-update', {
      token: owner,
      body: { workload: 'web', tag: '3.0.0', pairs: [{ tenant: 'acme', environment: 'dev' }] },
    });
    expect(bulk.status).toBe(200);
    await sim.refresh();
    const requested = await api.request(owner, 'soak', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(requested.status).toBe(201);
    const blocked = await api.until(owner, requested.body.id, (p) => p.status === 'Blocked');
    const cause = blocked.causes[0] as unknown as {
      cause: string;
      details: { unverified: { reason: string; soakUntil: string }[] };
    };
    expect(cause).toMatchObject({ cause: 'sourceUnverified', details: { unverified: [{ reason: 'soaking' }] } });
    const soakUntil = Date.parse(cause.details.unverified[0]!.soakUntil);
    const syncing = await api.status(owner, requested.body.id, 'Syncing', 20_000);
    expect(Date.now()).toBeGreaterThanOrEqual(soakUntil);
    expect(syncing.causes).toEqual([]);
  }, 120_000);
});
