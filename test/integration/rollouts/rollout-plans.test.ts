import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';

/**
 * Rollout plans (issue 48): one per project and environment, set with PUT, validated with 422s naming each problem,
 * audited, readable by viewers and managed by admins like the environment's other settings; tenant labels for the
 * waves' label selectors.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let owner: string;
let member: string;
let viewer: string;
const PLAN = '/api/v2/projects/shop/environments/prod/rollout-plan';
interface Plan {
  id: string;
  environment: string;
  waves: { name: string; soakSeconds: number }[];
  rollbackOnHalt: boolean;
  liftPinsWhenVerifiedUpstream: boolean;
}
const plan = {
  waves: [
    { name: 'canary', tenants: ['t1'], soakSeconds: 600 },
    {
      selector: { matchLabels: { tier: 'gold' } },
      approvalGate: true,
      checks: [
        {
          kind: 'prometheus',
          name: 'errors',
          metricSource: 'prom',
          query: 'sum(rate(errors{namespace=~"{{namespaces}}"}[1m]))',
          successCondition: 'result < 0.01',
          intervalSeconds: 60,
          count: 5,
          failureLimit: 1,
        },
      ],
    },
    { percent: 100 },
  ],
  rollbackOnHalt: true,
};

beforeAll(async () => {
  // The plan's check names metric source `prom`: a loopback Prometheus address, allowed here as the verification
  // tests allow it (nothing queries it in this file).
  platform = await startTestPlatform({
    env: { NOTIFY_ALLOW_PRIVATE_TARGETS: 'true', NOTIFY_ALLOW_HTTP: 'true', NOTIFY_ALLOWED_PORTS: '9090' },
  });
  http = httpClient(platform.url);
  const org = await makeOrg(platform, ['owner', 'member', 'viewer']);
  owner = org.members.owner!.token;
  const source = await http.post('/api/v2/metric-sources', {
    token: owner,
    body: { name: 'prom', kind: 'prometheus', url: 'http://127.0.0.1:9090' },
  });
  expect(source.status).toBe(201);
  member = org.members.member!.token;
  viewer = org.members.viewer!.token;
  const tenants = await makeProject(platform, owner, 'shop', ['t1', 't2', 't3']);
  const labelled = await http.patch(`/api/v2/tenants/${tenants.t2}`, {
    token: owner,
    body: { labels: { tier: 'gold' } },
  });
  expect([labelled.status, labelled.body.labels]).toEqual([200, { tier: 'gold' }]);
}, 120_000);
afterAll(() => platform.close());

describe('rollout plans', () => {
  it('sets, reads and lists a plan with defaults filled in, audited', async () => {
    const put = await http.put<Plan>(PLAN, { token: owner, body: plan });
    expect(put.status).toBe(200);
    expect(put.body.waves.map((w) => [w.name, w.soakSeconds])).toEqual([
      ['canary', 600],
      ['wave-2', 0],
      ['wave-3', 0],
    ]);
    expect([put.body.rollbackOnHalt, put.body.liftPinsWhenVerifiedUpstream]).toEqual([true, false]);
    const read = await http.get<Plan>(PLAN, { token: viewer });
    expect([read.status, read.body.id]).toEqual([200, put.body.id]);
    const list = await http.get<{ items: Plan[] }>('/api/v2/projects/shop/rollout-plans', { token: viewer });
    expect(list.body.items.map((p) => p.environment)).toEqual(['prod']);
    const again = await http.put<Plan>(PLAN, { token: owner, body: { waves: [{ percent: 50 }, { percent: 100 }] } });
    expect([again.status, again.body.id, again.body.waves.length]).toEqual([200, put.body.id, 2]);
    const audit = await http.get<{ items: { action: string }[] }>(
      '/api/v2/audit-logs?resourceType=rollout-plan&limit=10',
      { token: owner },
    );
    expect(audit.body.items.map((e) => e.action).sort()).toEqual(['rollout-plan.create', 'rollout-plan.update']);
  });

  it('answers 422 naming every problem of a plan', async () => {
    const res = await http.put<{ error: string }>(PLAN, {
      token: owner,
      body: {
        waves: [
          { name: 'a', tenants: ['t1', 'nobody'] },
          { name: 'a', tenants: ['t1'], percent: 10 },
          { approvalGate: 'no such policy' },
          {
            checks: [
              {
                kind: 'prometheus',
                name: 'c',
                metricSource: 'missing',
                query: 'up',
                successCondition: 'up > 1',
                intervalSeconds: 1,
                count: 2,
                failureLimit: 2,
              },
            ],
            percent: 100,
          },
        ],
      },
    });
    expect(res.status).toBe(422);
    for (const problem of [
      'wave 1 (a): tenant nobody is not in this project',
      'wave 2 (a): another wave has this name',
      'wave 2 (a): select tenants by exactly one of tenants, selector or percent',
      'wave 2 (a): tenant t1 is already in a',
      'wave 3 (wave-3): approval policy no such policy does not exist',
      'wave 4 (wave-4): check c: no metric source named missing (POST /api/v2/metric-sources)',
      'wave 4 (wave-4): check c: failureLimit must be below count',
      'wave 4 (wave-4): check c: success condition must be "result <op> <number>"',
    ]) {
      expect(res.body.error).toContain(problem);
    }
  });

  it('refuses a member (403), answers 404 for an unknown environment, and removes a plan', async () => {
    expect((await http.put(PLAN, { token: member, body: plan })).status).toBe(403);
    const unknown = await http.get('/api/v2/projects/shop/environments/nope/rollout-plan', { token: owner });
    expect(unknown.status).toBe(404);
    expect((await http.delete(PLAN, { token: owner })).status).toBe(204);
    expect((await http.get(PLAN, { token: owner })).status).toBe(404);
    expect((await http.delete(PLAN, { token: owner })).status).toBe(404);
  });
});
