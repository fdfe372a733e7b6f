import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cliRunner } from '../cli/cli-harness';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { rolloutSteps } from './rollout-harness';

/**
 * Rollouts end to end over HTTP (real Temporal dev server, PostgreSQL, git, controller webhook): a 3-wave rollout
 * over 6 tenants, each wave a promotion of its tenants turned Healthy by the controller's reports, soaked, then the
 * next; an approval gate before wave 3 waits for its approver; a freeze begun during wave 2 holds wave 3 until it
 * ends; a Degraded report halts and rolls waves 1-2 back in one commit with pins. The CLI follows each (`delivery
 * rollout get --wait`: a line per wave step) and aborts the halted one.
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let owner: string;
let admin: string;
let cli: ReturnType<typeof cliRunner>;
const TENANTS = ['t1', 't2', 't3', 't4', 't5', 't6'];

beforeAll(async () => {
  platform = await startTestPlatform({ env: { PROMOTION_RECHECK: '1s' } });
  api = promotionClient(platform);
  const org = await makeOrg(platform, ['owner', 'admin']);
  owner = org.members.owner!.token;
  admin = org.members.admin!.token;
  cli = cliRunner(platform.url);
  flow = rolloutSteps(api, owner);
}, 120_000);
afterAll(async () => {
  await cli.close();
  await platform.close();
});

const delivery = (slug: string, args: string[]) =>
  cli.run(['rollout', ...args], { env: { DELIVERY_TOKEN: owner, DELIVERY_PROJECT: slug } });
/** The lines `--wait` printed off a terminal, without their timestamps. */
const steps = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => l.replace(/^\S+Z /, ''));

async function project(slug: string) {
  const ids = await makeProject(platform, owner, slug, TENANTS);
  for (const tenant of TENANTS) await api.releaseToDev(owner, slug, ids[tenant]!, '2.0.0');
}

let flow: ReturnType<typeof rolloutSteps>;
const until: ReturnType<typeof rolloutSteps>['until'] = (...args) => flow.until(...args);
const deployWave: ReturnType<typeof rolloutSteps>['deployWave'] = (...args) => flow.deployWave(...args);
const auditOf: ReturnType<typeof rolloutSteps>['auditOf'] = (...args) => flow.auditOf(...args);

describe('a rollout in 3 waves over 6 tenants', () => {
  it('deploys each wave after the previous one soaked, waits for the approver of wave 3, and completes', async () => {
    await project('shop');
    const started = await flow.start('shop', {
      waves: [
        { name: 'canary', tenants: ['t1', 't2'], soakSeconds: 2 },
        { name: 'half', percent: 50, soakSeconds: 2 },
        { name: 'rest', percent: 100, approvalGate: true },
      ],
    });
    expect(started.status).toBe(201);
    expect(started.body.waves.map((w) => w.tenants)).toEqual([
      ['t1', 't2'],
      ['t3', 't4'],
      ['t5', 't6'],
    ]);
    const id = started.body.id;
    const following = delivery('shop', ['get', id, '--wait']);
    await deployWave('shop', id, 0);
    await deployWave('shop', id, 1);
    const gated = await until(id, (r) => r.status === 'AwaitingApproval', 'gate before wave 3');
    expect(gated.waves.map((w) => w.state)).toEqual(['Verified', 'Verified', 'AwaitingApproval']);
    // The CLI following it shows the gate before anyone approves (it polls every second).
    await eventually(
      async () => following.output().includes('AwaitingApproval wave 3/3'),
      20_000,
      'the CLI shows the gate',
    );
    const self = await api.http.post(`/api/v2/rollouts/${id}/approve`, { token: owner, body: {} });
    expect(self.status).toBe(403);
    expect((await api.http.post(`/api/v2/rollouts/${id}/approve`, { token: admin, body: {} })).status).toBe(200);
    await deployWave('shop', id, 2);
    const done = await until(id, (r) => r.status === 'Completed', 'completed');
    expect(done.waves.map((w) => w.state)).toEqual(['Verified', 'Verified', 'Verified']);
    // The CLI followed it live: each wave's steps in order, then the end.
    const followed = await following;
    expect(followed.code).toBe(0);
    const lines = steps(followed.stdout);
    // Each step is shown once, in order (a step shorter than the poll interval may pass unseen; the gate cannot).
    const first = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix));
    const order = [
      first('Running wave 1/3 (canary: t1, t2)'),
      first('Running wave 2/3 (half: t3, t4)'),
      lines.indexOf('AwaitingApproval wave 3/3 (rest: t5, t6) AwaitingApproval — waiting for approval (true)'),
      first('Completed wave 3/3 (rest: t5, t6) Verified'),
    ];
    expect(order).not.toContain(-1);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.at(-1)).toMatch(/^rollout [0-9a-f-]{36} \(dev -> prod, .+\) completed: every wave verified$/);

    // In order, each wave's promotion requested only after the previous wave's soak ended.
    const audit = await auditOf(id);
    const at = (action: string, n: number) => Date.parse(audit.filter((e) => e.action === action)[n]!.createdAt);
    expect(at('rollout.wave.verify', 0) - at('rollout.wave.soak', 0)).toBeGreaterThanOrEqual(2_000);
    expect(at('rollout.wave.verify', 1) - at('rollout.wave.soak', 1)).toBeGreaterThanOrEqual(2_000);
    expect(audit.map((e) => e.action)).toEqual(
      expect.arrayContaining(['rollout.start', 'rollout.wave.gate', 'rollout.wave.approve', 'rollout.complete']),
    );
  }, 400_000);

  it('a freeze starting during wave 2 holds wave 3 until it ends', async () => {
    await project('frost');
    const started = await flow.start('frost', {
      waves: [{ tenants: ['t1', 't2'] }, { tenants: ['t3', 't4'] }, { percent: 100 }],
    });
    const id = started.body.id;
    await deployWave('frost', id, 0);
    // Wave 2's promotion has committed (past its freeze check) when the freeze begins.
    const second = await until(id, (r) => r.waves[1]!.promotionIds.length > 0, 'wave 2 promotion');
    await api.status(owner, second.waves[1]!.promotionIds[0]!, 'Syncing', 60_000);
    const freeze = await api.http.post<{ id: string }>('/api/v2/projects/frost/freezes', {
      token: owner,
      body: {
        name: 'Incident',
        reason: 'payments are down',
        startsAt: new Date(Date.now() - 1_000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        environments: ['prod'],
      },
    });
    expect(freeze.status).toBe(201);
    await deployWave('frost', id, 1);
    // Wave 3's promotion waits on the freeze; ended (deleted), it goes on by itself.
    const third = await until(id, (r) => r.waves[2]!.promotionIds.length > 0, 'wave 3 promotion');
    const promotionId = third.waves[2]!.promotionIds[0]!;
    const blocked = await api.until(owner, promotionId, (p) => p.status === 'Blocked', 60_000);
    expect(blocked.causes.map((c) => c.cause)).toContain('freeze');
    expect((await until(id, (r) => r.status === 'Running', 'running')).waves[2]!.state).toBe('Deploying');
    const ended = await api.http.delete(`/api/v2/projects/frost/freezes/${freeze.body.id}`, { token: owner });
    expect(ended.status).toBe(204);
    await deployWave('frost', id, 2);
    const done = await until(id, (r) => r.status === 'Completed', 'completed');
    expect(done.waves.map((w) => w.state)).toEqual(['Verified', 'Verified', 'Verified']);
  }, 400_000);

  it('halts on a Degraded report in wave 2 and rolls waves 1-2 back in one commit with pins', async () => {
    await project('store');
    const started = await flow.start('store', {
      waves: [{ tenants: ['t1', 't2'] }, { tenants: ['t3', 't4'] }, { percent: 100 }],
      rollbackOnHalt: true,
    });
    const id = started.body.id;
    await deployWave('store', id, 0);
    await deployWave('store', id, 1, 'Degraded');
    const halted = await until(id, (r) => r.status === 'Halted' && r.waves[1]!.state === 'RolledBack', 'halted');
    expect(halted.statusReason).toContain('wave 2');
    const pins = await api.http.get<{ items: { tenant: string; environment: string }[] }>(
      '/api/v2/projects/store/pins',
      { token: owner },
    );
    expect(pins.body.items.map((p) => p.tenant).sort()).toEqual(['t1', 't2', 't3', 't4']);
    const rollbacks = (await auditOf(id)).filter((e) => e.action === 'rollback.initiate');
    expect(rollbacks).toHaveLength(1);
    expect(rollbacks[0]!.gitCommitSha).toMatch(/^[0-9a-f]{40}$/);
    // Following a halted rollout ends at once, badly, saying what to do; the CLI aborts it (asked off a terminal: -y).
    const followed = await delivery('store', ['get', id, '--wait']);
    expect(followed.code).toBe(1);
    expect(steps(followed.stdout).at(-1)).toMatch(/ halted: .*wave 2.*; resume or abort it$/);
    const unconfirmed = await delivery('store', ['abort', id, '-m', 'bad']);
    expect(unconfirmed.code).toBe(7);
    const aborted = await delivery('store', ['abort', id, '-m', 'bad', '-y', '-o', 'json']);
    expect(aborted.code).toBe(0);
    await until(id, (r) => r.status === 'Aborted', 'aborted');
    const table = await delivery('store', ['get', id]);
    expect(table.stdout.split('\n')[0]).toMatch(/^rollout [0-9a-f-]{36}: dev -> prod, .+, Aborted$/);
    const listed = JSON.parse((await delivery('store', ['list', '-o', 'json'])).stdout) as { items: { id: string }[] };
    expect(listed.items.map((r) => r.id)).toEqual([id]);
  }, 400_000);
});
