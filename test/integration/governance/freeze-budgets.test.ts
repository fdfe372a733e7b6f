import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { FREEZE_WRITES_PER_WINDOW, FREEZES_PER_PLAN } from '../../../src/freezes/freeze-service';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
}, 120_000);
afterAll(() => platform.close());

const window = (name: string) => ({
  name,
  reason: 'budget',
  startsAt: new Date(Date.now() + 3_600_000).toISOString(),
  endsAt: new Date(Date.now() + 7_200_000).toISOString(),
});
const count = async (token: string) =>
  (await http.get<{ items: unknown[] }>('/api/v2/freezes', { token })).body.items.length;
const auditRows = async (organizationId: string) =>
  Number((await platform.services.db('audit_log').where({ organization_id: organizationId }).count({ n: '*' }))[0]!.n);

describe('freeze budgets', () => {
  // Issue 25 (High): six freezes on 30 February made every listing take 5.2 s with the event loop blocked.
  it('refuses a rule naming no existing date, or too rare a one, with 422 and stores nothing', async () => {
    const org = await makeOrg(platform, ['owner']);
    const token = org.members.owner!.token;
    const before = await auditRows(org.org.id);
    for (const rrule of [
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
      'FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31',
      'FREQ=YEARLY;INTERVAL=20',
    ]) {
      const started = Date.now();
      const res = await http.post<{ error: string }>('/api/v2/freezes', {
        token,
        body: { name: 'never', reason: 'x', rrule, timeZone: 'UTC', durationMinutes: 60 },
      });
      expect([res.status, res.body.error]).toEqual([422, expect.stringContaining('at least two occurrences')]);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    const leapDay = await http.post('/api/v2/freezes', {
      token,
      body: {
        name: 'leap',
        reason: 'x',
        rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
        timeZone: 'UTC',
        durationMinutes: 60,
      },
    });
    expect(leapDay.status).toBe(201);
    expect(await count(token)).toBe(1);
    expect(await auditRows(org.org.id)).toBe(before + 1);
  });

  it('caps the windows of an organization by its plan', async () => {
    const org = await makeOrg(platform, ['owner'], 'free');
    const token = org.members.owner!.token;
    for (let i = 0; i < FREEZES_PER_PLAN.free; i++) {
      expect((await http.post('/api/v2/freezes', { token, body: window(`w${i}`) })).status).toBe(201);
    }
    const over = await http.post<{ error: string }>('/api/v2/freezes', { token, body: window('one too many') });
    expect([over.status, over.body.error]).toEqual([
      422,
      `an organization on the free plan keeps at most ${FREEZES_PER_PLAN.free} freeze windows`,
    ]);
    expect(await count(token)).toBe(FREEZES_PER_PLAN.free);
  });

  it('limits freeze writes per organization with 429 and Retry-After', async () => {
    const org = await makeOrg(platform, ['owner'], 'enterprise');
    const token = org.members.owner!.token;
    const created = await http.post<{ id: string }>('/api/v2/freezes', { token, body: window('w') });
    expect(created.status).toBe(201);
    for (let i = 1; i < FREEZE_WRITES_PER_WINDOW; i++) {
      const res = await http.patch(`/api/v2/freezes/${created.body.id}`, { token, body: { reason: `r${i}` } });
      expect(res.status).toBe(200);
    }
    const limited = await http.patch(`/api/v2/freezes/${created.body.id}`, { token, body: { reason: 'over' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await makeOrg(platform, ['owner']);
    expect((await http.post('/api/v2/freezes', { token: other.members.owner!.token, body: window('x') })).status).toBe(
      201,
    );
  });
});
