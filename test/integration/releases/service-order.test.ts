import type { ControllerSimulator } from '../../helpers/controller-simulator';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { watchedProject } from '../deployments/truth-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { releaseClient, type ReleaseBody } from './release-harness';

/**
 * Service order (issue 48): a release changing db-migrate, api and web (web dependsOn api, api dependsOn db-migrate)
 * commits one group at a time and waits for the controller simulator to report each Synced and Healthy at its commit
 * before committing the next; a Degraded group stops it.
 */
let platform: TestPlatform;
let releases: ReturnType<typeof releaseClient>;
let owner: string;
let sim: ControllerSimulator;
let tenants: Record<string, string>;
/** Applications the simulator reports Degraded. */
const degraded = new Set<string>();

beforeAll(async () => {
  platform = await startTestPlatform();
  releases = releaseClient(platform);
  const org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  const watched = await watchedProject(
    platform,
    { slug: org.org.slug, ownerToken: owner },
    'svc',
    ['acme'],
    releases.controller,
    (application) => (degraded.has(application) ? 'Degraded' : 'Healthy'),
  );
  ({ sim, tenants } = watched);
  const http = releases.http;
  const workload = (name: string, dependsOn: string[]) =>
    http.post('/api/v2/projects/svc/workloads', {
      token: owner,
      body: { name, image: { repository: `registry.example.com/svc/${name}`, tag: '1.0.0' }, dependsOn },
    });
  expect((await workload('db-migrate', [])).status).toBe(201);
  expect((await workload('api', ['db-migrate'])).status).toBe(201);
  expect((await workload('docs', [])).status).toBe(201);
  const web = await http.patch('/api/v2/projects/svc/workloads/web', { token: owner, body: { dependsOn: ['api'] } });
  expect(web.status).toBe(200);
  expect((await http.post('/api/v2/projects/svc/delivery/generate', { token: owner, body: {} })).status).toBe(200);
  await sim.refresh();
}, 180_000);
afterAll(async () => {
  await sim?.close();
  await platform.close();
});

async function create(environment: string, tag = '1.1.0') {
  const created = await releases.create(owner, 'svc', {
    environment,
    tenantId: tenants.acme,
    title: 'three services',
    changes: ['web', 'api', 'db-migrate'].map((workload) => ({ workload, tag })),
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

type Waiting = Pick<ReleaseBody, 'status' | 'commitSha' | 'statusReason'>;
const atGroup = (n: number, names: string) => (r: Waiting) =>
  r.status === 'Syncing' &&
  r.commitSha !== null &&
  r.statusReason === `group ${n}/3: ${names} — waiting for Synced and Healthy at ${r.commitSha.slice(0, 12)}`;

/** The release waiting on group `n` of 3 (its step on the row), with that group's commit. */
function waitingOn(id: string, n: number, names: string): Promise<ReleaseBody> {
  return releases.until(owner, id, atGroup(n, names));
}

/** The controller's next look: only `application` changed, at `revision`, and it turned Healthy. */
async function onlyReported(application: string, revision: string | null) {
  const sent = await sim.refresh();
  expect(sent.map((r) => [r.application, r.revision, r.healthStatus, r.status])).toEqual([
    [application, revision, 'Progressing', 200],
    [application, revision, 'Healthy', 200],
  ]);
}

describe('service order', () => {
  it('commits db-migrate, then api, then web, each after the previous group reported Synced and Healthy', async () => {
    const id = await create('dev');
    const shas: string[] = [];
    for (const [n, name] of [
      [1, 'db-migrate'],
      [2, 'api'],
      [3, 'web'],
    ] as const) {
      const waiting = await waitingOn(id, n, name);
      shas.push(waiting.commitSha!);
      // The controller looks now: the repository's head is this group's commit (the next group is not committed yet)
      // and only this group's Application changed, so only it reports.
      await onlyReported(`svc.acme.dev.${name}`, waiting.commitSha);
    }
    expect(new Set(shas).size).toBe(3);
    const done = await releases.status(owner, id, 'Healthy');
    expect(done.commitSha).toBe(shas[2]);
    expect(done.statusReason).toBe('every group synced and healthy, in service order');
    // Nothing else was committed: the controller's next look finds nothing changed.
    expect(await sim.refresh()).toEqual([]);
  });

  it('promotes in the same order: each group promoted only after the previous one is Healthy in the target', async () => {
    const promotions = promotionClient(platform);
    const requested = await promotions.request(owner, 'svc', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(requested.status).toBe(201);
    const id = requested.body.id;
    const shas: string[] = [];
    for (const [n, name] of [
      [1, 'db-migrate'],
      [2, 'api'],
      [3, 'web'],
    ] as const) {
      const waiting = await promotions.until(owner, id, atGroup(n, name));
      shas.push(waiting.commitSha!);
      await onlyReported(`svc.acme.prod.${name}`, waiting.commitSha);
    }
    expect(new Set(shas).size).toBe(3);
    const done = await promotions.status(owner, id, 'Healthy');
    expect(done.statusReason).toBe('every group synced and healthy, in service order');
    expect(await sim.refresh()).toEqual([]);
  });

  it('stops at a Degraded group: the later groups are never committed', async () => {
    degraded.add('svc.acme.prod.db-migrate');
    const id = await create('prod', '1.3.0');
    const waiting = await waitingOn(id, 1, 'db-migrate');
    const sent = await sim.refresh();
    expect(sent.map((r) => [r.application, r.healthStatus])).toEqual([
      ['svc.acme.prod.db-migrate', 'Progressing'],
      ['svc.acme.prod.db-migrate', 'Degraded'],
    ]);
    const failed = await releases.status(owner, id, 'Failed');
    expect(failed.statusReason).toBe(
      'group 1/3 (db-migrate): controller reported sync Synced, health Degraded: service db-migrate',
    );
    expect(failed.commitSha).toBe(waiting.commitSha);
    // api and web stayed as they were: the repository holds no commit after the first group's.
    expect(await sim.refresh()).toEqual([]);
  });

  it('commits once when no dependency links the changed workloads', async () => {
    const created = await releases.create(owner, 'svc', {
      environment: 'dev',
      tenantId: tenants.acme,
      title: 'two unrelated',
      changes: [
        { workload: 'docs', tag: '1.2.0' },
        { workload: 'api', tag: '1.2.0' },
      ],
    });
    expect(created.status).toBe(201);
    const syncing = await releases.status(owner, created.body.id, 'Syncing');
    expect(syncing.statusReason).toBeNull();
    const sent = await sim.refresh();
    expect(new Set(sent.map((r) => r.revision))).toEqual(new Set([syncing.commitSha]));
    expect(new Set(sent.map((r) => r.application))).toEqual(new Set(['svc.acme.dev.docs', 'svc.acme.dev.api']));
    await releases.status(owner, created.body.id, 'Healthy');
  });
});
