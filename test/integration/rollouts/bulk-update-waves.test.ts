import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { rolloutSteps } from './rollout-harness';

/**
 * Issue 48 (docs/rollouts.md "Plans followed by promotions, releases and bulk updates", decision 0013): a bulk image
 * update of web to prod, which has a 2-wave plan, starts an image rollout: wave 1's tenant committed first, wave 2's
 * only after wave 1 verified; its pairs in dev (no plan) are committed at once, in one commit, in the same request.
 * A retry under the same Idempotency-Key starts nothing more. The preview lists the 2 waves. Skipping the plan (`rollout: "none"`) without break-glass answers 403 and changes
 * nothing.
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let flow: ReturnType<typeof rolloutSteps>;
let owner: string;
const SLUG = 'bulkwaves';
const PAIRS = ['dev', 'prod'].flatMap((environment) => ['t1', 't2'].map((tenant) => ({ tenant, environment })));
const BODY = { workload: 'web', tag: '2.0.0', pairs: PAIRS };

interface Commit {
  sha: string;
  message: string;
}

beforeAll(async () => {
  platform = await startTestPlatform({ env: { PROMOTION_RECHECK: '1s' } });
  api = promotionClient(platform);
  owner = (await makeOrg(platform, ['owner'])).members.owner!.token;
  flow = rolloutSteps(api, owner);
  await makeProject(platform, owner, SLUG, ['t1', 't2']);
  await flow.putProdPlan(SLUG, [
    { name: 'canary', tenants: ['t1'], soakSeconds: 1 },
    { name: 'rest', percent: 100 },
  ]);
}, 120_000);
afterAll(async () => {
  await platform.close();
});

/** The project's commits, newest first: SHA and subject (the message's first line; trailers follow it). */
const commits = async () => {
  const res = await api.http.get<{ items: Commit[] }>(`/api/v2/projects/${SLUG}/commits?limit=20`, { token: owner });
  return res.body.items.map((c) => ({ sha: c.sha, subject: c.message.split('\n')[0] }));
};
const rolloutCount = async () =>
  (await api.http.get<{ items: unknown[] }>(`/api/v2/projects/${SLUG}/rollouts`, { token: owner })).body.items.length;
/** The tenants whose web tag differs between dev and prod in the repository. */
const differing = async () => {
  const res = await api.http.get<{ items: { tenant: string }[] }>(
    `/api/v2/projects/${SLUG}/compare?from=dev&to=prod&type=image`,
    { token: owner },
  );
  return res.body.items.map((i) => i.tenant);
};

it('the preview lists the waves prod would follow, and changes nothing', async () => {
  const before = await commits();
  const preview = await api.http.post<{
    files: { path: string }[];
    rollouts: { environment: string; plan: string; waves: { name: string; tenants: string[]; waitsFor: string[] }[] }[];
  }>(`/api/v2/projects/${SLUG}/bulk-update/preview`, { token: owner, body: BODY });
  expect(preview.status).toBe(200);
  expect(preview.body.rollouts).toEqual([
    {
      environment: 'prod',
      plan: 'environment',
      waves: [
        expect.objectContaining({ name: 'canary', tenants: ['t1'], waitsFor: ['soak 1s'] }),
        expect.objectContaining({ name: 'rest', tenants: ['t2'], waitsFor: ['wave canary verified'] }),
      ],
    },
  ]);
  // The files are what the update changes in the end, every pair's (prod's over its waves).
  expect(new Set(preview.body.files.map((f) => f.path.split('/').slice(1, 3).join('/')))).toEqual(
    new Set(['t1/dev', 't2/dev', 't1/prod', 't2/prod']),
  );
  expect([await commits(), await rolloutCount()]).toEqual([before, 0]);
}, 120_000);

it('skipping the plan without an open break-glass session answers 403 and changes nothing', async () => {
  const before = await commits();
  const refused = await api.http.post(`/api/v2/projects/${SLUG}/bulk-update`, {
    token: owner,
    body: { ...BODY, rollout: 'none' },
  });
  expect([refused.status, refused.text]).toEqual([403, expect.stringContaining('break-glass')]);
  expect([await commits(), await rolloutCount()]).toEqual([before, 0]);
}, 120_000);

it('commits dev at once and moves prod wave by wave: wave 2 only after wave 1 verified', async () => {
  const before = await commits();
  const request = () =>
    api.http.post<{
      commit: string | null;
      skipped: unknown[];
      rollouts: { rolloutId: string; environment: string; links: { rollout: string; ui: string } }[];
    }>(`/api/v2/projects/${SLUG}/bulk-update`, {
      token: owner,
      body: BODY,
      headers: { 'Idempotency-Key': 'bulk-waves-1' },
    });
  const res = await request();
  expect(res.status).toBe(200);
  const id = res.body.rollouts[0]!.rolloutId;
  expect(res.body.rollouts).toEqual([
    { rolloutId: id, environment: 'prod', links: { rollout: `/api/v2/rollouts/${id}`, ui: `/rollouts/${id}` } },
  ]);
  // Dev's two pairs in one commit, made by the request; prod untouched by it.
  const afterRequest = await commits();
  expect(afterRequest.slice(1)).toEqual(before);
  expect(afterRequest[0]).toEqual({ sha: res.body.commit, subject: 'Update web to 2.0.0 for 2 tenant environment(s)' });
  expect(await differing()).toEqual(['t1', 't2']);
  // A retry under the same Idempotency-Key answers the same commit and rollout, and starts nothing more.
  const retried = await request();
  expect([retried.status, retried.body.commit, retried.body.rollouts]).toEqual([
    200,
    res.body.commit,
    res.body.rollouts,
  ]);
  expect([await commits(), await rolloutCount()]).toEqual([afterRequest, 1]);

  const rollout = await flow.get(id);
  expect([rollout.waves.map((w) => w.tenants), rollout.statusReason]).toEqual([[['t1'], ['t2']], null]);
  expect(rollout).toMatchObject({ sourceEnvironment: null, environment: 'prod', version: '2.0.0' });

  const first = await flow.deployWave(SLUG, id, 0);
  expect(await differing()).toEqual(['t2']);
  const second = await flow.deployWave(SLUG, id, 1);
  const done = await flow.until(id, (r) => r.status === 'Completed', 'completed');
  expect(await differing()).toEqual([]);

  // One commit per wave, after the request's; each wave's promotion sets the tag on its tenant, from what it ran.
  const [wave1, wave2] = await Promise.all(done.waves.map(async (w) => api.get(owner, w.promotionIds[0]!)));
  expect([wave1!.commitSha, wave2!.commitSha]).toEqual([first, second]);
  expect(wave1!.moves).toEqual([
    expect.objectContaining({
      tenant: 't1',
      changes: [{ workload: 'web', tag: '2.0.0' }],
      previous: [{ workload: 'web', tag: '1.0.0' }],
    }),
  ]);
  expect(wave2!.moves.map((m) => m.tenant)).toEqual(['t2']);
  expect((await commits()).slice(0, 3).map((c) => [c.sha, c.subject])).toEqual([
    [second, 'Promote image web 2.0.0 to prod: t2'],
    [first, 'Promote image web 2.0.0 to prod: t1'],
    [res.body.commit, 'Update web to 2.0.0 for 2 tenant environment(s)'],
  ]);
  // Wave 2's promotion was requested only once wave 1 was verified.
  const at = async (resourceId: string, action: string) =>
    Date.parse((await flow.auditOf(resourceId)).find((e) => e.action === action)!.createdAt);
  expect(await at(id, 'rollout.wave.verify')).toBeLessThanOrEqual(await at(wave2!.id, 'promotion.request'));
  const start = await api.http.get<{ items: { details: Record<string, unknown> }[] }>(
    `/api/v2/audit-logs?resourceId=${id}&action=rollout.start`,
    { token: owner },
  );
  expect(start.body.items[0]!.details).toMatchObject({
    requestedAs: 'bulk-update',
    sourceEnvironment: null,
    change: { workload: 'web', tag: '2.0.0' },
  });
}, 300_000);

it('under an open break-glass session skipping the plan commits every pair at once, recorded on each entry', async () => {
  const opened = await api.http.post<{ id: string }>('/api/v2/break-glass', {
    token: owner,
    body: { justification: 'hotfix for every tenant now', durationMinutes: 5, scope: { projects: [SLUG] } },
  });
  expect(opened.status).toBe(201);
  const res = await api.http.post<{ commit: string; rollouts?: unknown }>(`/api/v2/projects/${SLUG}/bulk-update`, {
    token: owner,
    body: { ...BODY, tag: '3.0.0', rollout: 'none' },
  });
  expect([res.status, res.body.rollouts]).toEqual([200, undefined]);
  expect((await commits())[0]).toEqual({
    sha: res.body.commit,
    subject: 'Update web to 3.0.0 for 4 tenant environment(s)',
  });
  expect(await rolloutCount()).toBe(1);
  const entries = await api.http.get<{ items: { gitCommitSha: string | null; details: Record<string, unknown> }[] }>(
    '/api/v2/audit-logs?action=image.update&limit=50',
    { token: owner },
  );
  const own = entries.body.items.filter((e) => e.gitCommitSha === res.body.commit);
  expect(own.map((e) => e.details.rolloutPlanSkipped)).toEqual(
    Array.from({ length: 4 }, () => [{ environment: 'prod', breakGlassSessionId: opened.body.id }]),
  );
}, 120_000);
