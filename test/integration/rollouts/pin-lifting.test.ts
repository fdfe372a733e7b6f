import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { releaseClient } from '../releases/release-harness';
import { shapeBHeaders } from '../webhooks/webhook-signing';
import { rolloutSteps } from './rollout-harness';

/**
 * Issue 48 item 6 (docs/rollouts.md): production is rolled back and pinned; the image webhook skips it. The version it
 * rolled back from, verified again in dev, lifts nothing; a newer version verified in dev lifts the pin (the prod plan
 * says `liftPinsWhenVerifiedUpstream`), audited, and the next webhook updates production again: through prod's plan,
 * as an image rollout whose wave commits it (decision 0014).
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let owner: string;
let acme: string;
let secret: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = promotionClient(platform);
  owner = (await makeOrg(platform, ['owner'])).members.owner!.token;
  acme = (await makeProject(platform, owner, 'lift', ['acme'])).acme!;
  const plan = await api.http.put('/api/v2/projects/lift/environments/prod/rollout-plan', {
    token: owner,
    body: { waves: [{ percent: 100 }], liftPinsWhenVerifiedUpstream: true },
  });
  expect([plan.status, plan.text]).toEqual([200, expect.any(String)]);
  const settings = await api.http.put<{ secret: string }>('/api/v2/projects/lift/webhook-settings', {
    token: owner,
    body: { autoUpdateEnvironments: ['prod'] },
  });
  expect(settings.status).toBe(201);
  secret = settings.body.secret;
}, 120_000);
afterAll(() => platform.close());

/** A signed image update of web to `tag` for acme's production: the answer's committed and skipped targets. */
async function webhook(tag: string) {
  const body = JSON.stringify({
    image: 'registry.example.com/shop/web',
    tag,
    digest: `sha256:${'cd'.repeat(32)}`,
    project: 'lift',
    workload: 'web',
    environments: ['prod'],
    tenants: ['acme'],
    timestamp: new Date().toISOString(),
  });
  const res = await api.http.post<{
    commit: string | null;
    skipped?: { reason: string }[];
    rollouts?: { rolloutId: string }[];
  }>('/api/v1/webhooks/image-update', { rawBody: body, headers: shapeBHeaders(secret, body) });
  expect(res.status).toBe(200);
  return res.body;
}

const pins = async () =>
  (
    await api.http.get<{ items: { tenant: string; environment: string }[] }>('/api/v2/projects/lift/pins', {
      token: owner,
    })
  ).body.items;

it('lifts the rollback pin when a newer version is verified upstream, and the next webhook updates prod', async () => {
  await api.releaseTo(owner, 'lift', 'prod', acme, '1.1.0');
  await api.releaseTo(owner, 'lift', 'prod', acme, '1.2.0');
  const rollback = await api.http.post<{ id: string }>(`/api/v2/tenants/${acme}/envs/prod/rollback`, {
    token: owner,
    body: { reason: 'bad image' },
  });
  expect(rollback.status).toBe(201);
  const releases = releaseClient(platform);
  const syncing = await releases.status(owner, rollback.body.id, 'Syncing');
  await releases.reportSync(owner, rollback.body.id, syncing.commitSha!);
  expect(await pins()).toEqual([expect.objectContaining({ tenant: 'acme', environment: 'prod' })]);
  expect((await webhook('1.2.5')).skipped).toEqual([expect.objectContaining({ reason: 'pinned' })]);

  // The version production rolled back from, verified in dev: still pinned.
  await api.releaseToDev(owner, 'lift', acme, '1.2.0');
  expect(await pins()).toHaveLength(1);
  // A newer one: lifted, with the entry that says what lifted it.
  await api.releaseToDev(owner, 'lift', acme, '1.3.0');
  expect(await pins()).toEqual([]);
  const unpinned = await platform.services
    .db('audit_log')
    .where({ action: 'target.unpin', resource_id: acme })
    .first('actor_type', 'details');
  expect(unpinned).toMatchObject({
    actor_type: 'system',
    details: {
      environment: 'prod',
      releasedBy: { kind: 'verified-upstream', environment: 'dev', service: 'web', version: '1.3.0' },
    },
  });
  const resumed = await webhook('1.3.0');
  expect([resumed.commit, resumed.skipped ?? [], resumed.rollouts?.length]).toEqual([null, [], 1]);
  const sha = await rolloutSteps(api, owner).deployWave('lift', resumed.rollouts![0]!.rolloutId, 0);
  expect(sha).toMatch(/^[0-9a-f]{40}$/);
}, 240_000);
