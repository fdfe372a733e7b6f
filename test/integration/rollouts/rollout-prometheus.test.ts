import type { PrometheusCheck } from '../../../src/verification/check-spec';
import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import {
  startExporter,
  startPrometheus,
  tenantTraffic,
  type Exporter,
  type RunningPrometheus,
} from '../../helpers/prometheus';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { rolloutSteps } from './rollout-harness';

/**
 * Issue 48's end-to-end acceptance on the embedded stack with a real Prometheus (Debian's, scraping an exporter this
 * test drives): a 3-wave rollout over 6 tenants, each wave soaked then verified by the error rate of its own tenants.
 * With the rate normal it completes in order, each wave after its soak; when the rate of a wave-2 tenant rises it
 * halts in wave 2, rolls waves 1-2 back in one commit with pins (plan option on), notifies `rollout.halted`, and the
 * rollout's audit chain shows every step.
 */
const TENANTS = ['t1', 't2', 't3', 't4', 't5', 't6'];
const SOAK = 2;
let exporter: Exporter;
let prometheus: RunningPrometheus;
let stopTraffic: () => void = () => undefined;
const errorsPerTick: Record<string, number> = Object.fromEntries(TENANTS.map((t) => [t, 0]));
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let owner: string;
let flow: ReturnType<typeof rolloutSteps>;

const errorRate: PrometheusCheck = {
  kind: 'prometheus',
  name: 'error-rate',
  metricSource: 'prom',
  query:
    'sum(rate(http_requests_total{tenant=~"{{tenants}}",code=~"5.."}[5s])) / ' +
    'sum(rate(http_requests_total{tenant=~"{{tenants}}"}[5s]))',
  successCondition: 'result < 0.01',
  intervalSeconds: 1,
  count: 3,
  failureLimit: 0,
};
const plan = {
  waves: [
    { name: 'canary', tenants: ['t1', 't2'], soakSeconds: SOAK, checks: [errorRate] },
    { name: 'half', tenants: ['t3', 't4'], soakSeconds: SOAK, checks: [errorRate] },
    { name: 'rest', percent: 100, soakSeconds: SOAK, checks: [errorRate] },
  ],
  rollbackOnHalt: true,
};

beforeAll(async () => {
  exporter = await startExporter();
  stopTraffic = tenantTraffic(exporter, errorsPerTick);
  prometheus = await startPrometheus({ targets: [exporter.target], scrapeSeconds: 1 });
  platform = await startTestPlatform({
    env: {
      PROMOTION_RECHECK: '1s',
      NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
      NOTIFY_ALLOW_HTTP: 'true',
      NOTIFY_ALLOWED_PORTS: String(prometheus.port),
    },
  });
  api = promotionClient(platform);
  const org = await makeOrg(platform, ['owner'], 'pro');
  owner = org.members.owner!.token;
  flow = rolloutSteps(api, owner);
  const source = await api.http.post('/api/v2/metric-sources', {
    token: owner,
    body: { name: 'prom', kind: 'prometheus', url: prometheus.url },
  });
  expect(source.status).toBe(201);
}, 180_000);

afterAll(async () => {
  stopTraffic();
  await platform?.close();
  await prometheus?.close();
  await exporter?.close();
});

async function start(slug: string): Promise<string> {
  const ids = await makeProject(platform, owner, slug, TENANTS);
  for (const tenant of TENANTS) await api.releaseToDev(owner, slug, ids[tenant]!, '2.0.0');
  const started = await flow.start(slug, plan);
  expect([started.status, started.body.waves.map((w) => w.tenants)]).toEqual([
    201,
    [
      ['t1', 't2'],
      ['t3', 't4'],
      ['t5', 't6'],
    ],
  ]);
  return started.body.id;
}

describe('a rollout verified on a real Prometheus', () => {
  it('with the error rate normal: completes in order, each wave verified after its soak', async () => {
    const id = await start('calm');
    for (const wave of [0, 1, 2]) await flow.deployWave('calm', id, wave);
    const done = await flow.until(id, (r) => r.status === 'Completed', 'completed');
    expect(done.waves.map((w) => w.state)).toEqual(['Verified', 'Verified', 'Verified']);
    const audit = await flow.auditOf(id);
    const at = (action: string) => audit.filter((e) => e.action === action).map((e) => Date.parse(e.createdAt));
    const [soaks, verifies, measures] = [
      at('rollout.wave.soak'),
      at('rollout.wave.verify'),
      at('rollout.wave.measure'),
    ];
    expect([soaks.length, verifies.length]).toEqual([3, 3]);
    for (let wave = 0; wave < 3; wave++) expect(verifies[wave]! - soaks[wave]!).toBeGreaterThanOrEqual(SOAK * 1000);
    // Each wave measured its check `count` times, all passing, before its verification.
    expect(measures.length).toBeGreaterThanOrEqual(9);
    expect(verifies).toEqual([...verifies].sort((a, b) => a - b));
  }, 300_000);

  it("halts in wave 2 when a wave-2 tenant's error rate rises, rolls waves 1-2 back in one commit, notifies", async () => {
    const id = await start('storm');
    await flow.deployWave('storm', id, 0);
    await flow.until(id, (r) => r.waves[0]!.state === 'Verified', 'wave 1 verified');
    // Wave 2 is deployed as t3 starts failing a fifth of its requests: its verification sees it.
    errorsPerTick.t3 = 3;
    try {
      await flow.deployWave('storm', id, 1);
      const halted = await flow.until(id, (r) => r.status === 'Halted' && r.waves[1]!.state === 'RolledBack', 'halted');
      expect(halted.statusReason).toContain('wave 2');
      expect(halted.waves.map((w) => w.state)).toEqual(['RolledBack', 'RolledBack', 'Pending']);
    } finally {
      errorsPerTick.t3 = 0;
    }
    // One rollback commit for the four tenants of waves 1-2, each pinned.
    const pins = await api.http.get<{ items: { tenant: string; environment: string }[] }>(
      '/api/v2/projects/storm/pins',
      { token: owner },
    );
    expect(pins.body.items.map((p) => `${p.tenant}/${p.environment}`).sort()).toEqual([
      't1/prod',
      't2/prod',
      't3/prod',
      't4/prod',
    ]);
    const audit = await flow.auditOf(id);
    const rollbacks = audit.filter((e) => e.action === 'rollback.initiate');
    expect(rollbacks).toHaveLength(1);
    expect(rollbacks[0]!.gitCommitSha).toMatch(/^[0-9a-f]{40}$/);
    // Every step, in order: start, wave 1 through its verification, wave 2's failed measurement, the halt, the rollback.
    const actions = audit.map((e) => e.action);
    const first = (action: string) => actions.indexOf(action);
    expect(actions).toEqual(expect.arrayContaining(['rollout.start', 'rollout.wave.measure', 'rollout.halt']));
    expect(first('rollout.start')).toBe(0);
    expect(first('rollout.wave.verify')).toBeLessThan(first('rollout.halt'));
    expect(first('rollout.halt')).toBeLessThan(actions.lastIndexOf('rollout.rollback'));

    await platform.services.notifications.reconcileDispatchers();
    const notified = await eventually(async () => {
      const inbox = await api.http.get<{ items: { event: string; payload: Record<string, unknown> }[] }>(
        '/api/v2/notifications?limit=100',
        { token: owner },
      );
      return inbox.body.items.find((n) => n.event === 'rollout.halted' && JSON.stringify(n.payload).includes(id));
    }, 30_000);
    expect(notified).toBeDefined();
  }, 300_000);
});
