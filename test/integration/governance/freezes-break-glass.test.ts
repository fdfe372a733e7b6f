import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { listDomainEvents } from '../../../src/events/domain-event-repository';
import { pinAsRollback } from '../../helpers/pins';
import { makeProject } from '../gitops/gitops-harness';

/** One break-glass "minute" lasts 3 s here (BREAK_GLASS_MINUTE), so a session closes by itself within the test. */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let other: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let tenantIds: Record<string, string>;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { BREAK_GLASS_MINUTE: '3s' } });
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer']);
  other = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  tenantIds = await makeProject(platform, owner, 'shop', ['acme', 'globex']);
  expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
}, 120_000);
afterAll(() => platform.close());

const hour = 3_600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const pairs = [
  { tenant: 'acme', environment: 'dev' },
  { tenant: 'globex', environment: 'prod' },
];
const bulk = (token: string) =>
  http.post<{ commit: string | null; skipped: unknown[]; message?: string; auditIds: string[]; error?: string }>(
    '/api/v2/projects/shop/bulk-update',
    { token, body: { workload: 'web', tag: '9.9.9', pairs } },
  );
const head = async () =>
  (await http.get<{ items: { sha: string }[] }>('/api/v2/projects/shop/commits?limit=1', { token: owner })).body
    .items[0]?.sha;

describe('freeze windows', () => {
  it('refuses bad windows with a plain reason and lets only admins and owners manage them', async () => {
    const post = (body: Record<string, unknown>, token = owner) =>
      http.post('/api/v2/projects/shop/freezes', { token, body: { name: 'x', reason: 'y', ...body } });
    const cases: [Record<string, unknown>, string][] = [
      [{ rrule: 'FREQ=SOMETIMES', timeZone: 'Europe/Berlin', durationMinutes: 60 }, 'not a valid RFC 5545'],
      [{ rrule: 'FREQ=WEEKLY;BYDAY=FR', timeZone: 'Mars/Base', durationMinutes: 60 }, 'unknown time zone Mars/Base'],
      [{ startsAt: iso(hour), endsAt: iso(0) }, 'endsAt must be after startsAt'],
      [
        { startsAt: iso(0), endsAt: iso(hour), environments: ['staging'] },
        'unknown environment(s) of the project: staging',
      ],
      [{ rrule: 'FREQ=DAILY', timeZone: 'UTC', durationMinutes: 60, endsAt: iso(hour) }, 'no endsAt'],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect([res.status, res.body.error]).toEqual([422, expect.stringContaining(message)]);
    }
    expect((await post({ startsAt: iso(0), endsAt: iso(hour) }, org.members.member!.token)).status).toBe(403);
    expect((await http.get('/api/v2/projects/shop/freezes', { token: org.members.viewer!.token })).status).toBe(200);
  });

  let freezeId: string;
  it('a one-off freeze of prod is listed as active with its window; a recurring one lists its next occurrences', async () => {
    const created = await http.post<{ id: string }>('/api/v2/projects/shop/freezes', {
      token: org.members.admin!.token,
      body: { name: 'Launch', reason: 'launch week', startsAt: iso(-hour), endsAt: iso(hour), environments: ['prod'] },
    });
    expect(created.status).toBe(201);
    freezeId = created.body.id;
    const weekly = await http.post<{ upcoming: unknown[]; active: boolean }>('/api/v2/freezes', {
      token: owner,
      body: {
        name: 'Weekend',
        reason: 'no weekend deploys',
        rrule: 'FREQ=WEEKLY;BYDAY=SA',
        timeZone: 'Europe/Berlin',
        durationMinutes: 60,
        projects: ['shop'],
        environments: ['qa'],
      },
    });
    expect(weekly.status).toBe(201);
    expect(weekly.body.upcoming.length).toBeGreaterThanOrEqual(4);
    const list = await http.get<{ items: { id: string; active: boolean; scope: string; current: unknown }[] }>(
      '/api/v2/projects/shop/freezes',
      { token: owner },
    );
    expect(list.body.items.find((f) => f.id === freezeId)).toMatchObject({
      active: true,
      scope: 'project',
      current: { startsAt: expect.any(String) },
    });
    expect(list.body.items.some((f) => f.scope === 'organization')).toBe(true);
    const audit = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id, action: 'freeze.create' });
    expect(audit).toHaveLength(2);
  });

  it('names tenants by slug, id or catalogue id like every route, and keeps them by slug', async () => {
    const tenants = await http.get<{ items: { id: string; slug: string; catalogueTenantId: string }[] }>(
      '/api/v2/projects/shop/tenants',
      { token: owner },
    );
    const globex = tenants.body.items.find((t) => t.slug === 'globex')!;
    expect(globex.id).toBe(tenantIds.globex);
    const body = { name: 'Audit week', reason: 'audit', startsAt: iso(10 * hour), endsAt: iso(11 * hour) };
    const created = await http.post<{ id: string; tenants: string[] }>('/api/v2/projects/shop/freezes', {
      token: owner,
      body: { ...body, tenants: [globex.id, 'ACME'.toLowerCase()] },
    });
    expect([created.status, created.body.tenants]).toEqual([201, ['globex', 'acme']]);
    const patched = await http.patch<{ tenants: string[] }>(`/api/v2/projects/shop/freezes/${created.body.id}`, {
      token: owner,
      body: { tenants: [globex.catalogueTenantId] },
    });
    expect([patched.status, patched.body.tenants]).toEqual([200, ['globex']]);
    const unknown = await http.post<{ error: string }>('/api/v2/projects/shop/freezes', {
      token: owner,
      body: { ...body, tenants: ['initech'] },
    });
    expect([unknown.status, unknown.body.error]).toEqual([422, 'unknown tenant(s) of the project: initech']);
    expect((await http.delete(`/api/v2/projects/shop/freezes/${created.body.id}`, { token: owner })).status).toBe(204);
  });

  it("another organization's freeze ids answer 404", async () => {
    const foreign = other.members.owner!.token;
    const orgWide = (await http.get<{ items: { id: string }[] }>('/api/v2/freezes', { token: owner })).body.items[0]!
      .id;
    expect((await http.get(`/api/v2/freezes/${orgWide}`, { token: foreign })).status).toBe(404);
    expect((await http.patch(`/api/v2/freezes/${orgWide}`, { token: foreign, body: { reason: 'x' } })).status).toBe(
      404,
    );
    expect((await http.delete(`/api/v2/freezes/${freezeId}`, { token: foreign })).status).toBe(404);
    expect((await http.get(`/api/v2/freezes/${freezeId}`, { token: owner })).status).toBe(404);
  });

  it('bulk update: pinned pairs are skipped with the reason, frozen pairs refuse the whole update (nothing committed)', async () => {
    await pinAsRollback(platform, {
      organizationId: org.org.id,
      project: 'shop',
      tenantId: tenantIds.acme!,
      tenant: 'acme',
      environment: 'dev',
    });
    const before = await head();
    const refused = await bulk(owner);
    expect([refused.status, refused.body.error]).toEqual([409, expect.stringContaining('Launch (launch week)')]);
    expect(await head()).toBe(before);
    const preview = await http.post<{ skipped: unknown[]; blocked: boolean; freezes: { id: string }[] }>(
      '/api/v2/projects/shop/bulk-update/preview',
      { token: owner, body: { workload: 'web', tag: '9.9.9', pairs } },
    );
    expect(preview.body).toMatchObject({ blocked: true, freezes: [{ id: freezeId }] });
    const onlyPinned = await http.post<{ commit: null; skipped: unknown[]; message: string }>(
      '/api/v2/projects/shop/bulk-update',
      { token: owner, body: { workload: 'web', tag: '9.9.9', pairs: [pairs[0]] } },
    );
    expect(onlyPinned.status).toBe(200);
    expect(onlyPinned.body).toMatchObject({
      commit: null,
      skipped: [{ tenant: 'acme', environment: 'dev', reason: 'pinned: rolled back' }],
      message: expect.stringContaining('nothing committed'),
    });
    expect(await head()).toBe(before);
  });
});

describe('break-glass sessions', () => {
  it('a member cannot open one; bad input is refused', async () => {
    const body = { justification: 'prod is down, hotfix', durationMinutes: 1 };
    const member = await http.post('/api/v2/break-glass', { token: org.members.member!.token, body });
    expect([member.status, member.body.error]).toEqual([403, expect.stringContaining('may not open')]);
    expect(
      (await http.post('/api/v2/break-glass', { token: owner, body: { ...body, justification: 'short' } })).status,
    ).toBe(400);
    expect(
      (await http.post('/api/v2/break-glass', { token: owner, body: { ...body, durationMinutes: 481 } })).status,
    ).toBe(400);
  });

  let sessionId: string;
  it('the owner opens one; the frozen bulk update goes through and its audit entries carry the session', async () => {
    const opened = await http.post<{ id: string; status: string; endsAt: string }>('/api/v2/break-glass', {
      token: owner,
      body: { justification: 'prod is down, hotfix', durationMinutes: 1, scope: { projects: ['shop'] } },
    });
    expect([opened.status, opened.body.status]).toEqual([201, 'open']);
    sessionId = opened.body.id;
    const events = await listDomainEvents(platform.services.db, org.org.id);
    expect(events.filter((e) => e.type === 'break_glass.opened').map((e) => e.payload.sessionId)).toEqual([sessionId]);

    const applied = await bulk(owner);
    expect(applied.status).toBe(200);
    expect(applied.body.skipped).toEqual([{ tenant: 'acme', environment: 'dev', reason: 'pinned: rolled back' }]);
    expect(applied.body.commit).toEqual(await head());
    const shown = await http.get<{ actions: { action: string; details: Record<string, unknown> }[] }>(
      `/api/v2/break-glass/${sessionId}`,
      { token: owner },
    );
    expect(shown.body.actions).toEqual([
      expect.objectContaining({
        action: 'image.update',
        details: expect.objectContaining({
          tenant: 'globex',
          breakGlass: { sessionId, justification: 'prod is down, hotfix' },
        }),
      }),
    ]);
    expect((await http.get(`/api/v2/break-glass/${sessionId}`, { token: other.members.owner!.token })).status).toBe(
      404,
    );
    expect(
      (await http.post(`/api/v2/break-glass/${sessionId}/close`, { token: other.members.owner!.token })).status,
    ).toBe(404);
    expect((await http.get('/api/v2/break-glass', { token: other.members.owner!.token })).body).toMatchObject({
      items: [],
    });
    expect((await http.get('/api/v2/break-glass', { token: org.members.viewer!.token })).status).toBe(403);
  });

  it('closes by itself after its duration (workflow timer); the next frozen action is refused again', async () => {
    const closed = await eventually(
      async () => {
        const res = await http.get<{ closedAt: string | null; closeReason: string }>(
          `/api/v2/break-glass/${sessionId}`,
          { token: owner },
        );
        return res.body.closedAt ? res.body : null;
      },
      20_000,
      'session closed by its timer',
    );
    expect(closed.closeReason).toBe('expired');
    expect((await bulk(owner)).status).toBe(409);
    expect((await http.post(`/api/v2/break-glass/${sessionId}/close`, { token: owner })).status).toBe(409);
  });

  it('closing by hand: a member cannot close the owner session; the owner can, once; the grant ends at once', async () => {
    const opened = await http.post<{ id: string }>('/api/v2/break-glass', {
      token: owner,
      body: { justification: 'second incident today', durationMinutes: 100 },
    });
    const id = opened.body.id;
    expect((await http.post(`/api/v2/break-glass/${id}/close`, { token: org.members.member!.token })).status).toBe(403);
    const closed = await http.post<{ status: string; closeReason: string }>(`/api/v2/break-glass/${id}/close`, {
      token: owner,
    });
    expect([closed.status, closed.body.status, closed.body.closeReason]).toEqual([200, 'closed', 'closed']);
    expect((await bulk(owner)).status).toBe(409);
    const list = await http.get<{ items: { id: string }[] }>('/api/v2/break-glass?limit=1', { token: owner });
    expect(list.body.items.map((s) => s.id)).toEqual([id]);
  });

  it('settings: only owners change who may open sessions; a member allowed then opens one', async () => {
    expect(
      (
        await http.put('/api/v2/break-glass/settings', {
          token: org.members.admin!.token,
          body: { allowedRoles: ['owner', 'member'] },
        })
      ).status,
    ).toBe(403);
    const put = await http.put('/api/v2/break-glass/settings', {
      token: owner,
      body: { allowedRoles: ['owner', 'member'] },
    });
    expect(put.body).toEqual({ allowedRoles: ['owner', 'member'] });
    const member = await http.post('/api/v2/break-glass', {
      token: org.members.member!.token,
      body: { justification: 'member on call fixes prod', durationMinutes: 1, scope: { environments: ['dev'] } },
    });
    expect(member.status).toBe(201);
  });
});

describe('stop the line', () => {
  it('an admin stops the line: every project is frozen (dev too) until released', async () => {
    const admin = org.members.admin!.token;
    expect((await http.put('/api/v2/freezes/stop-the-line', { token: admin, body: { enabled: true } })).status).toBe(
      422,
    );
    expect(
      (
        await http.put('/api/v2/freezes/stop-the-line', {
          token: org.members.member!.token,
          body: { enabled: true, reason: 'x' },
        })
      ).status,
    ).toBe(403);
    const on = await http.put('/api/v2/freezes/stop-the-line', {
      token: admin,
      body: { enabled: true, reason: 'incident 42' },
    });
    expect(on.body).toMatchObject({ enabled: true, reason: 'incident 42' });
    const dev = await http.post('/api/v2/projects/shop/bulk-update', {
      token: admin,
      body: { workload: 'web', tag: '9.9.9', pairs: [{ tenant: 'globex', environment: 'dev' }] },
    });
    expect([dev.status, dev.body.error]).toEqual([409, expect.stringContaining('stop the line (incident 42)')]);
    await http.put('/api/v2/freezes/stop-the-line', { token: admin, body: { enabled: false } });
    const after = await http.post('/api/v2/projects/shop/bulk-update', {
      token: admin,
      body: { workload: 'web', tag: '9.9.9', pairs: [{ tenant: 'globex', environment: 'dev' }] },
    });
    expect(after.status).toBe(200);
  });
});
