/**
 * Issue 16 item 8: probing another organization's identifiers leaves no side channel. A foreign id and a missing one
 * do the same work (the same SQL statements), write nothing to the caller's readable organization log, count alike
 * against the caller's miss limit (429 past it, for both), and reach the operators through metrics and the log.
 */
import type { Knex } from 'knex';
import { makeOrg, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

const MISS_LIMIT = 12;
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let prober: Member;
let foreignTeam: string;
let proberOrgId: string;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false, env: { LOOKUP_MISS_RATE_PER_CALLER: String(MISS_LIMIT) } });
  http = httpClient(platform.url);
  const victim = await makeOrg(platform);
  const made = await makeOrg(platform, ['owner', 'viewer']);
  prober = made.members.viewer!;
  proberOrgId = made.org.id;
  foreignTeam = (
    await http.post<{ id: string }>('/api/v2/teams', {
      token: victim.members.owner!.token,
      body: { slug: 'secret', name: 'Secret' },
    })
  ).body.id;
});
afterAll(() => platform.close());

const missingTeam = () => crypto.randomUUID();

/** The SQL statements (bindings left out: they hold the ids) one request makes. */
async function statementsOf(path: string): Promise<{ status: number; body: unknown; sql: string[] }> {
  const sql: string[] = [];
  const listen = (q: Knex.Sql) => void sql.push(q.sql);
  platform.services.db.on('query', listen);
  try {
    const res = await http.get(path, { token: prober.token });
    return { status: res.status, body: res.body, sql };
  } finally {
    platform.services.db.off('query', listen);
  }
}

async function deniedCount(): Promise<number> {
  const metric = await platform.services.metrics.crossOrgDenials.get();
  return metric.values.filter((v) => v.labels.resource_type === 'team').reduce((n, v) => n + v.value, 0);
}

describe('foreign and missing identifiers', () => {
  it('do the same work and give the same answer', async () => {
    const foreign = await statementsOf(`/api/v2/teams/${foreignTeam}`);
    const missing = await statementsOf(`/api/v2/teams/${missingTeam()}`);
    expect(foreign.status).toBe(404);
    expect(missing).toEqual({ status: foreign.status, body: foreign.body, sql: foreign.sql });
  });

  it("write nothing to the caller's organization log; operators see the foreign one in metrics", async () => {
    const audit = () => platform.services.db('audit_log').where({ organization_id: proberOrgId }).count('* as n');
    const before = { audit: await audit(), denied: await deniedCount() };
    expect((await http.get(`/api/v2/teams/${foreignTeam}`, { token: prober.token })).status).toBe(404);
    expect((await http.get(`/api/v2/teams/${missingTeam()}`, { token: prober.token })).status).toBe(404);
    expect(await audit()).toEqual(before.audit);
    expect(await deniedCount()).toBe(before.denied + 1);
  });

  it('count alike against the miss limit: past it, both answer 429 with Retry-After', async () => {
    await platform.services.db('rate_limit_counters').where('key', 'like', 'lookup-miss:%').delete();
    for (let i = 0; i < MISS_LIMIT; i += 1) {
      const id = i % 2 === 0 ? foreignTeam : missingTeam();
      expect((await http.get(`/api/v2/teams/${id}`, { token: prober.token })).status).toBe(404);
    }
    for (const id of [foreignTeam, missingTeam()]) {
      const res = await http.get(`/api/v2/teams/${id}`, { token: prober.token });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
