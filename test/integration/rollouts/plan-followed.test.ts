import { makeOrg } from '../../helpers/fixtures';
import { cliRunner } from '../cli/cli-harness';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { rolloutSteps, type Rollout } from './rollout-harness';

/**
 * Issue 48 item 1 (docs/rollouts.md "Plans followed by promotions, releases and bulk updates"): a plain promotion
 * request to an environment with a 2-wave rollout plan starts a rollout: wave 1's tenant committed first, wave 2 only
 * after wave 1 verified and its gate approved. The preview lists the 2 waves and what each waits for, changing
 * nothing. Skipping the plan (`rollout: "none"`) needs the caller's open break-glass session, and is audited. A
 * request may give its own plan (an environment without one then rolls out in its waves).
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let flow: ReturnType<typeof rolloutSteps>;
let owner: string;
let admin: string;
let cli: ReturnType<typeof cliRunner>;
const TENANTS = ['t1', 't2', 't3'];
const BODY = { sourceEnvironment: 'dev', targetEnvironment: 'prod' };

interface Preview {
  moves: { tenant: string }[];
  rollout: { plan: string; waves: { name: string; tenants: string[]; waitsFor: string[] }[] } | null;
}

beforeAll(async () => {
  platform = await startTestPlatform({ env: { PROMOTION_RECHECK: '1s' } });
  api = promotionClient(platform);
  const org = await makeOrg(platform, ['owner', 'admin']);
  owner = org.members.owner!.token;
  admin = org.members.admin!.token;
  flow = rolloutSteps(api, owner);
  cli = cliRunner(platform.url);
}, 120_000);
afterAll(async () => {
  await cli.close();
  await platform.close();
});

/** A project whose 3 tenants run 2.0.0 in dev; with `envPlan`, prod's 2-wave rollout plan. */
async function project(slug: string, envPlan = true) {
  const ids = await makeProject(platform, owner, slug, TENANTS);
  for (const tenant of TENANTS) await api.releaseToDev(owner, slug, ids[tenant]!, '2.0.0');
  if (!envPlan) return;
  await flow.putProdPlan(slug, [
    { name: 'canary', tenants: ['t1'], soakSeconds: 1 },
    { name: 'rest', percent: 100, approvalGate: true },
  ]);
}

const counts = async (slug: string) => {
  const get = (path: string) =>
    api.http.get<{ items: unknown[] }>(`/api/v2/projects/${slug}/${path}`, { token: owner });
  return [(await get('promotions')).body.items.length, (await get('rollouts')).body.items.length];
};

it('the preview lists the waves and what each waits for, and changes nothing', async () => {
  await project('waves');
  const preview = await api.http.post<Preview>('/api/v2/projects/waves/promotion/preview', {
    token: owner,
    body: BODY,
  });
  expect(preview.status).toBe(200);
  expect(preview.body.moves.map((m) => m.tenant)).toEqual(TENANTS);
  expect(preview.body.rollout).toEqual({
    plan: 'environment',
    waves: [
      expect.objectContaining({ name: 'canary', tenants: ['t1'], waitsFor: ['soak 1s'] }),
      expect.objectContaining({
        name: 'rest',
        tenants: ['t2', 't3'],
        waitsFor: [
          'wave canary verified',
          'approval: 1 approval(s) by role member, not the requester (rollout wave gate)',
        ],
      }),
    ],
  });
  // `rollout: "none"` previews one promotion of every tenant; nothing was created by either preview.
  const alone = await api.http.post<Preview>('/api/v2/projects/waves/promotion/preview', {
    token: owner,
    body: { ...BODY, rollout: 'none' },
  });
  expect([alone.status, alone.body.rollout, alone.body.moves.length]).toEqual([200, null, 3]);
  // The CLI's preview prints the same waves.
  const shown = await cli.run(['promote', '--from', 'dev', '--to', 'prod', '--preview'], {
    env: { DELIVERY_TOKEN: owner, DELIVERY_PROJECT: 'waves' },
  });
  expect([shown.code, shown.stdout.split('\n').slice(1, 4)]).toEqual([
    0,
    [
      "a rollout in 2 waves (prod's plan):",
      '  1. canary: t1 — waits for soak 1s',
      '  2. rest: t2, t3 — waits for wave canary verified; approval: 1 approval(s) by role member, not the requester (rollout wave gate)',
    ],
  ]);
  expect(await counts('waves')).toEqual([0, 0]);
}, 300_000);

it('a promotion request follows the plan: wave 1 committed first, wave 2 after wave 1 verified and approved', async () => {
  const res = await api.http.post<{ rolloutId: string; rollout: Rollout; links: { rollout: string; ui: string } }>(
    '/api/v2/projects/waves/promotion/request',
    { token: owner, body: BODY },
  );
  expect(res.status).toBe(201);
  const id = res.body.rolloutId;
  expect(res.body.links).toEqual({ rollout: `/api/v2/rollouts/${id}`, ui: `/rollouts/${id}` });
  expect(res.headers.get('location')).toBe(`/api/v2/rollouts/${id}`);
  expect(res.body.rollout.waves.map((w) => w.tenants)).toEqual([['t1'], ['t2', 't3']]);

  const first = await flow.deployWave('waves', id, 0);
  const gated = await flow.until(id, (r) => r.status === 'AwaitingApproval', 'the gate before wave 2');
  // Wave 2 has not moved: no promotion while wave 1 soaked and verified, and none before its gate is approved.
  expect(gated.waves.map((w) => [w.state, w.promotionIds.length])).toEqual([
    ['Verified', 1],
    ['AwaitingApproval', 0],
  ]);
  expect((await api.http.post(`/api/v2/rollouts/${id}/approve`, { token: admin, body: {} })).status).toBe(200);
  const second = await flow.deployWave('waves', id, 1);
  expect(second).not.toBe(first);
  const done = await flow.until(id, (r) => r.status === 'Completed', 'completed');
  const [wave1, wave2] = await Promise.all(done.waves.map(async (w) => api.get(owner, w.promotionIds[0]!)));
  expect([wave1!.moves.map((m) => m.tenant), wave2!.moves.map((m) => m.tenant)]).toEqual([['t1'], ['t2', 't3']]);
  expect([wave1!.commitSha, wave2!.commitSha]).toEqual([first, second]);

  const audit = await flow.auditOf(id);
  const at = (action: string) => Date.parse(audit.find((e) => e.action === action)!.createdAt);
  expect(at('rollout.wave.verify')).toBeLessThanOrEqual(at('rollout.wave.approve'));
  const start = await api.http.get<{ items: { details: Record<string, unknown> }[] }>(
    `/api/v2/audit-logs?resourceId=${id}&action=rollout.start`,
    { token: owner },
  );
  expect(start.body.items[0]!.details).toMatchObject({ requestedAs: 'promotion' });
}, 300_000);

it('skipping the plan needs an open break-glass session, and the promotion request records it', async () => {
  await project('skip');
  const refused = await api.request(owner, 'skip', { ...BODY, rollout: 'none' });
  expect([refused.status, refused.text]).toEqual([403, expect.stringContaining('break-glass')]);
  expect(await counts('skip')).toEqual([0, 0]);

  const opened = await api.http.post<{ id: string }>('/api/v2/break-glass', {
    token: owner,
    body: { justification: 'hotfix for every tenant now', durationMinutes: 5, scope: { projects: ['skip'] } },
  });
  expect(opened.status).toBe(201);
  const alone = await api.request(owner, 'skip', { ...BODY, rollout: 'none' });
  expect(alone.status).toBe(201);
  expect(alone.body.moves.map((m) => m.tenant)).toEqual(TENANTS);
  expect(await counts('skip')).toEqual([1, 0]);
  const entry = await api.http.get<{ items: { details: Record<string, unknown> }[] }>(
    `/api/v2/audit-logs?resourceId=${alone.body.id}&action=promotion.request`,
    { token: owner },
  );
  expect(entry.body.items[0]!.details).toMatchObject({ rolloutPlanSkipped: { breakGlassSessionId: opened.body.id } });
}, 300_000);

it('a promotion request may give its own plan: previewed and followed in its waves; a bad one changes nothing', async () => {
  await project('explicit', false);
  const plan = {
    waves: [
      { name: 'first', tenants: ['t2'] },
      { name: 'others', percent: 100, soakSeconds: 600 },
    ],
  };
  const preview = await api.http.post<Preview>('/api/v2/projects/explicit/promotion/preview', {
    token: owner,
    body: { ...BODY, plan },
  });
  expect([preview.status, preview.body.rollout?.plan]).toEqual([200, 'request']);
  expect(preview.body.rollout!.waves.map((w) => [w.name, w.tenants, w.waitsFor])).toEqual([
    ['first', ['t2'], []],
    ['others', ['t1', 't3'], ['wave first verified', 'soak 10m']],
  ]);
  // Refused, nothing created: a plan naming a tenant the project lacks (422), a field the plan does not have (400),
  // a plan with `rollout: "none"` (422).
  const refusals = [
    [{ ...BODY, plan: { waves: [{ name: 'w', tenants: ['nope'] }] } }, 422, 'nope'],
    [{ ...BODY, plan: { waves: [{ name: 'w', percent: 100, extra: 1 }] } }, 400, 'extra'],
    [{ ...BODY, plan, rollout: 'none' }, 422, 'cannot skip it'],
  ] as const;
  for (const [body, status, named] of refusals) {
    const res = await api.http.post('/api/v2/projects/explicit/promotion/request', { token: owner, body });
    expect([res.status, res.text]).toEqual([status, expect.stringContaining(named)]);
  }
  expect(await counts('explicit')).toEqual([0, 0]);

  const res = await api.http.post<{ rolloutId: string; rollout: Rollout }>(
    '/api/v2/projects/explicit/promotion/request',
    { token: owner, body: { ...BODY, plan } },
  );
  expect(res.status).toBe(201);
  expect(res.body.rollout.waves.map((w) => w.tenants)).toEqual([['t2'], ['t1', 't3']]);
  await flow.deployWave('explicit', res.body.rolloutId, 0);
  const second = await flow.until(res.body.rolloutId, (r) => r.waves[1]!.promotionIds.length > 0, 'wave 2 promotion');
  expect(second.waves[0]!.state).toBe('Verified');
  const aborted = await api.http.post(`/api/v2/rollouts/${res.body.rolloutId}/abort`, {
    token: owner,
    body: { reason: 'test over' },
  });
  expect(aborted.status).toBe(200);
}, 300_000);
