import { makeOrg } from '../../helpers/fixtures';
import { harnessState } from '../../helpers/harness-state';
import { eventually } from '../../helpers/net';
import { startTcpProxy } from '../../helpers/tcp-proxy';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { shapeBHeaders } from '../webhooks/webhook-signing';
import { rolloutSteps } from './rollout-harness';

/**
 * A rollout's start while the API cannot reach Temporal (its client goes through a proxy this test cuts; the worker
 * reaches the server directly): the signed image update to an environment with a plan is answered with its rollout
 * recorded, not failed with 503, and the rollouts reconciler starts the rollout's workflow once Temporal answers
 * again, which commits the first wave (decision 0014, Consequences).
 */
const SLUG = 'outage';
const IMAGE = 'registry.example.com/outage/web';
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let flow: ReturnType<typeof rolloutSteps>;
let secret: string;

beforeAll(async () => {
  const [host, port] = harnessState().temporalAddress.split(':');
  proxy = await startTcpProxy(host!, Number(port));
  platform = await startTestPlatform({ temporalAddress: `127.0.0.1:${proxy.port}`, env: { PROMOTION_RECHECK: '1s' } });
  api = promotionClient(platform);
  const org = await makeOrg(platform, ['owner']);
  const owner = org.members.owner!.token;
  flow = rolloutSteps(api, owner);
  await makeProject(platform, owner, SLUG, ['t1', 't2'], { image: { repository: IMAGE, tag: '1.0.0' } });
  const generated = await api.http.post(`/api/v2/projects/${SLUG}/delivery/generate`, { token: owner, body: {} });
  expect(generated.status).toBe(200);
  await flow.putProdPlan(SLUG, [
    { name: 'canary', tenants: ['t1'], soakSeconds: 600 },
    { name: 'rest', percent: 100 },
  ]);
  const settings = await api.http.put<{ secret: string }>(`/api/v2/projects/${SLUG}/webhook-settings`, {
    token: owner,
    body: { autoUpdateEnvironments: ['prod'] },
  });
  expect(settings.status).toBe(201);
  secret = settings.body.secret;
}, 120_000);
afterAll(async () => {
  await platform?.close();
  await proxy?.cut();
});

it('answers an image update with its rollout recorded while Temporal is unreachable; the reconciler starts it after', async () => {
  await proxy.cut();
  const body = JSON.stringify({
    image: IMAGE,
    tag: '2.0.0',
    digest: `sha256:${'cd'.repeat(32)}`,
    project: SLUG,
    workload: 'web',
    environments: ['prod'],
    tenants: ['*'],
    timestamp: new Date().toISOString(),
  });
  const res = await api.http.post<{ rollouts?: { rolloutId: string; status: string }[] }>(
    '/api/v1/webhooks/image-update',
    { rawBody: body, headers: shapeBHeaders(secret, body) },
  );
  expect([res.status, res.body.rollouts?.map((r) => r.status)]).toEqual([200, ['Running']]);
  const id = res.body.rollouts![0]!.rolloutId;
  const row = () => platform.services.db('rollouts').where({ id }).first('workflow_started_at');
  expect(await row()).toEqual({ workflow_started_at: null });

  await proxy.restore();
  // A worker's reconciler runs it on its interval; here the test runs it until Temporal answers the API again.
  const started = await eventually(async () => (await platform.services.rollouts.reconcile()) > 0 || null, 30_000);
  expect(started).toBe(true);
  expect((await row())!.workflow_started_at).not.toBeNull();
  const rollout = await flow.until(id, (r) => r.waves[0]!.promotionIds.length > 0, 'the first wave promoted');
  expect(rollout.status).toBe('Running');
}, 180_000);
