import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';
import { promotionClient } from './promotion-harness';

/**
 * Promotions and releases under freezes and break-glass, over HTTP with real Temporal, PostgreSQL and git. One
 * break-glass "minute" lasts 2 s here, so a session closes by itself within the test.
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let releases: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

beforeAll(async () => {
  platform = await startTestPlatform({
    env: { PROMOTION_RECHECK: '1s', RELEASE_QUEUE_POLL: '1s', BREAK_GLASS_MINUTE: '2s' },
  });
  api = promotionClient(platform);
  releases = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'admin', 'member']);
  owner = org.members.owner!.token;
}, 120_000);
afterAll(() => platform.close());

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const errorOf = (body: unknown) => (body as { error?: string }).error ?? '';

async function freeze(project: string, endsInMs: number) {
  const res = await api.http.post<{ id: string }>(`/api/v2/projects/${project}/freezes`, {
    token: owner,
    body: {
      name: 'Launch',
      reason: 'launch week',
      startsAt: iso(-60_000),
      endsAt: iso(endsInMs),
      environments: ['prod'],
    },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function approvalPolicy(project: string) {
  const res = await api.http.post('/api/v2/approval-policies', {
    token: owner,
    body: {
      project,
      name: 'prod needs one',
      environments: ['prod'],
      requiredApprovals: 1,
      eligibleApprovers: { roles: ['admin'] },
    },
  });
  expect(res.status).toBe(201);
}

describe('a promotion into a frozen environment', () => {
  it('is Blocked by the freeze and the missing approval together, and proceeds when both clear', async () => {
    const tenants = await makeProject(platform, owner, 'frz', ['acme']);
    await approvalPolicy('frz');
    await api.releaseToDev(owner, 'frz', tenants.acme!, '4.0.0');
    await freeze('frz', 8_000);

    const requested = await api.request(org.members.member!.token, 'frz', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
    });
    expect(requested.status).toBe(201);
    const blocked = await api.until(owner, requested.body.id, (p) => p.causes.length === 2);
    expect(blocked.status).toBe('Blocked');
    expect(blocked.causes.map((c) => c.cause)).toEqual(['freeze', 'approvals']);
    expect(blocked.causes[0]!.message).toBe('the target environment is frozen by Launch (launch week)');

    const approved = await api.http.post(`/api/v2/promotions/${requested.body.id}/approve`, {
      token: org.members.admin!.token,
      body: {},
    });
    expect(approved.status).toBe(200);
    const frozen = await api.until(owner, requested.body.id, (p) => p.causes.length === 1);
    expect(frozen.causes[0]!.cause).toBe('freeze');
    // The freeze ends: the promotion goes on by itself.
    const syncing = await api.status(owner, requested.body.id, 'Syncing', 30_000);
    expect(syncing.commitSha).toMatch(/^[0-9a-f]{40}$/);
  }, 60_000);
});

describe('a promotion inside a break-glass session', () => {
  it('goes through the freeze and the approval wait, carries the session in its audit entry, and not after it closes', async () => {
    const tenants = await makeProject(platform, owner, 'bg', ['acme', 'globex']);
    await approvalPolicy('bg');
    await api.releaseToDev(owner, 'bg', tenants.acme!, '5.0.0');
    await freeze('bg', 3_600_000);
    const justification = 'prod is down, hotfix now';
    const session = await api.http.post<{ id: string }>('/api/v2/break-glass', {
      token: owner,
      body: { justification, durationMinutes: 3, scope: { projects: ['bg'] } },
    });
    expect(session.status).toBe(201);

    const requested = await api.request(owner, 'bg', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(requested.status).toBe(201);
    const syncing = await api.status(owner, requested.body.id, 'Syncing');
    expect(syncing.breakGlass).toMatchObject({ sessionId: session.body.id, justification });
    const audit = await api.http.get<{ items: { action: string; details: Record<string, unknown> }[] }>(
      `/api/v2/audit-logs?resourceType=promotion&resourceId=${requested.body.id}&limit=100`,
      { token: owner },
    );
    const execute = audit.body.items.find((e) => e.action === 'promotion.execute');
    expect(execute?.details.breakGlass).toEqual({ sessionId: session.body.id, justification });
    const listed = await api.http.get<{ actions: { action: string }[] }>(`/api/v2/break-glass/${session.body.id}`, {
      token: owner,
    });
    expect(listed.body.actions.map((a) => a.action)).toContain('promotion.execute');

    // The session closes by itself; the same kind of action is blocked again.
    await eventually(
      async () => {
        const s = await api.http.get<{ status: string }>(`/api/v2/break-glass/${session.body.id}`, { token: owner });
        return s.body.status === 'closed';
      },
      30_000,
      'the session to close',
    );
    await api.releaseToDev(owner, 'bg', tenants.globex!, '5.1.0');
    const after = await api.request(owner, 'bg', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
      tenants: ['globex'],
    });
    const blocked = await api.until(owner, after.body.id, (p) => p.status === 'Blocked');
    expect(blocked.causes.map((c) => c.cause)).toEqual(['freeze', 'approvals']);
    expect(blocked.breakGlass).toBeNull();
  }, 90_000);
});

describe('a release into a frozen environment', () => {
  it('is refused when requested, and one waiting for approval when the freeze starts waits for its end', async () => {
    const tenants = await makeProject(platform, owner, 'rel', ['acme']);
    await approvalPolicy('rel');
    const body = {
      environment: 'prod',
      tenantId: tenants.acme,
      title: 'web 6',
      changes: [{ workload: 'web', tag: '6.0.0' }],
    };
    const waiting = await releases.create(org.members.member!.token, 'rel', body);
    expect(waiting.status).toBe(201);
    await releases.status(owner, waiting.body.id, 'PendingApproval');

    const freezeId = await freeze('rel', 3_600_000);
    const refused = await releases.create(org.members.member!.token, 'rel', { ...body, title: 'web 7' });
    expect([refused.status, errorOf(refused.body)]).toEqual([409, 'acme/prod is frozen by Launch (launch week)']);

    await api.http.post(`/api/v2/releases/${waiting.body.id}/approve`, { token: org.members.admin!.token, body: {} });
    const held = await releases.until(owner, waiting.body.id, (r) => r.status === 'Queued');
    expect(held.statusReason).toBe('frozen by Launch (launch week)');
    expect(held.commitSha).toBeNull();

    expect((await api.http.delete(`/api/v2/projects/rel/freezes/${freezeId}`, { token: owner })).status).toBe(204);
    const syncing = await releases.status(owner, waiting.body.id, 'Syncing');
    expect(syncing.commitSha).toMatch(/^[0-9a-f]{40}$/);
  }, 60_000);
});

describe('a release inside a break-glass session', () => {
  it('names the session that bypassed its approvals; the break-glass category and the session filter list its actions', async () => {
    const tenants = await makeProject(platform, owner, 'rbg', ['acme']);
    await approvalPolicy('rbg');
    const justification = 'checkout is down, hotfix';
    const session = await api.http.post<{ id: string }>('/api/v2/break-glass', {
      token: owner,
      body: { justification, durationMinutes: 60, scope: { projects: ['rbg'] } },
    });
    expect(session.status).toBe(201);
    const created = await releases.create(owner, 'rbg', {
      environment: 'prod',
      tenantId: tenants.acme,
      title: 'web 8',
      changes: [{ workload: 'web', tag: '8.0.0' }],
    });
    expect(created.status).toBe(201);
    const syncing = await releases.status(owner, created.body.id, 'Syncing');
    const named = { sessionId: session.body.id, justification, actor: expect.stringContaining('@') };
    expect(syncing.approvals.bypassedBy).toMatchObject(named);
    expect(syncing.breakGlass).toMatchObject(named);

    type Entries = { items: { action: string; resourceId: string | null; details: Record<string, unknown> }[] };
    const category = await api.http.get<Entries>('/api/v2/audit-logs?category=break_glass&limit=100', {
      token: owner,
    });
    expect(category.status).toBe(200);
    const ofRelease = category.body.items.filter((e) => e.resourceId === created.body.id).map((e) => e.action);
    expect(ofRelease).toEqual(expect.arrayContaining(['release.create', 'release.break_glass.apply']));
    expect(category.body.items.map((e) => e.action)).toContain('break_glass.open');

    const bySession = await api.http.get<Entries>(
      `/api/v2/audit-logs?breakGlassSessionId=${session.body.id}&limit=100`,
      { token: owner },
    );
    expect(bySession.status).toBe(200);
    expect(bySession.body.items.map((e) => e.action)).toEqual(
      expect.arrayContaining(['break_glass.open', 'release.create', 'release.break_glass.apply']),
    );
    const apply = bySession.body.items.find((e) => e.action === 'release.break_glass.apply');
    expect(apply?.details).toMatchObject({
      bypassedApprovalPolicies: [{ name: 'prod needs one', requiredApprovals: 1 }],
      breakGlass: { sessionId: session.body.id, justification },
    });
    // Another session's filter finds none of them.
    const none = await api.http.get<Entries>(`/api/v2/audit-logs?breakGlassSessionId=${created.body.id}`, {
      token: owner,
    });
    expect(none.body.items).toEqual([]);
  }, 60_000);
});
