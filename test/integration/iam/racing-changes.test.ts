import type { Knex } from 'knex';
import { makeOrg, makeUser, type Member } from '../../helpers/fixtures';
import { httpClient, type HttpResponse } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * Requests that race on one row. The test holds a row lock so the requests queue up on it in a known order, then
 * lets them go: a change that finds its row gone answers 404 like a missing one and leaves no audit entry, and a
 * membership change is decided on the caller's role as it is under the organization lock, not as it was when the
 * request started.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let admin: Member;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  const made = await makeOrg(platform, ['owner', 'admin']);
  org = made.org;
  admin = made.members.admin!;
});
afterAll(() => platform.close());

/** Backends of this test database waiting for a lock. */
async function waiting(): Promise<number> {
  const row = (await platform.services
    .db('pg_stat_activity')
    .whereRaw('datname = current_database()')
    .where('wait_event_type', 'Lock')
    .count<{ n: string }[]>('* as n')
    .first()) as { n: string } | undefined;
  return Number(row?.n ?? 0);
}

/**
 * Locks one row, starts the requests one after the other (each once the previous one waits on the lock), runs
 * `meanwhile` inside the locking transaction, commits, and returns the answers in request order.
 */
async function queuedBehind(
  lock: (trx: Knex.Transaction) => Promise<unknown>,
  requests: (() => Promise<HttpResponse>)[],
  meanwhile: (trx: Knex.Transaction) => Promise<unknown> = async () => undefined,
): Promise<HttpResponse[]> {
  const trx = await platform.services.db.transaction();
  const answers: Promise<HttpResponse>[] = [];
  try {
    await lock(trx);
    for (const [i, request] of requests.entries()) {
      answers.push(request());
      await eventually(async () => (await waiting()) >= i + 1 || null, 10_000, `request ${i + 1} waiting`);
    }
    await meanwhile(trx);
    await trx.commit();
  } catch (err) {
    await trx.rollback();
    throw err;
  }
  return Promise.all(answers);
}

const lockRow = (table: string, id: string) => (trx: Knex.Transaction) =>
  trx(table).where({ id }).forUpdate().first('id');

async function auditActions(resourceId: string): Promise<string[]> {
  return (await platform.services
    .db('audit_log')
    .where({ organization_id: org.id, resource_id: resourceId })
    .orderBy('seq')
    .pluck('action')) as string[];
}

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await http.post<{ id: string }>(path, { token: admin.token, body });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('a change racing a delete of the same resource', () => {
  it('tenant: the second delete and a rename behind it answer 404, one tenant.delete entry', async () => {
    const id = await created('/api/v2/org/tenants', { slug: 'racy', name: 'Racy' });
    const path = `/api/v2/org/tenants/${id}`;
    const answers = await queuedBehind(lockRow('org_tenants', id), [
      () => http.delete(path, { token: admin.token }),
      () => http.delete(path, { token: admin.token }),
      () => http.patch(path, { token: admin.token, body: { name: 'Late' } }),
    ]);
    expect(answers.map((r) => [r.status, r.body])).toEqual([
      [204, undefined],
      [404, { error: 'tenant not found' }],
      [404, { error: 'tenant not found' }],
    ]);
    expect(await auditActions(id)).toEqual(['tenant.create', 'tenant.delete']);
  });

  it('team: a rename and a second delete behind a delete answer 404, one team.delete entry', async () => {
    const id = await created('/api/v2/teams', { slug: 'racy', name: 'Racy' });
    const path = `/api/v2/teams/${id}`;
    const answers = await queuedBehind(lockRow('teams', id), [
      () => http.delete(path, { token: admin.token }),
      () => http.patch(path, { token: admin.token, body: { name: 'Late' } }),
      () => http.delete(path, { token: admin.token }),
    ]);
    expect(answers.map((r) => [r.status, r.body])).toEqual([
      [204, undefined],
      [404, { error: 'team not found' }],
      [404, { error: 'team not found' }],
    ]);
    expect(await auditActions(id)).toEqual(['team.create', 'team.delete']);
  });

  it('grant: a role change and a second revoke behind a revoke answer 404, one permission.revoke entry', async () => {
    const id = await created('/api/v2/permissions', {
      subjectType: 'user',
      subjectId: admin.user.id,
      resourceType: 'project',
      resourceId: 'racy',
      role: 'viewer',
    });
    const path = `/api/v2/permissions/${id}`;
    const answers = await queuedBehind(lockRow('resource_grants', id), [
      () => http.delete(path, { token: admin.token }),
      () => http.patch(path, { token: admin.token, body: { role: 'admin' } }),
      () => http.delete(path, { token: admin.token }),
    ]);
    expect(answers.map((r) => [r.status, r.body])).toEqual([
      [204, undefined],
      [404, { error: 'permission not found' }],
      [404, { error: 'permission not found' }],
    ]);
    expect(await auditActions(id)).toEqual(['permission.grant', 'permission.revoke']);
  });

  it('team member: adding a member removed from the organization meanwhile answers 404, not 500', async () => {
    const teamId = await created('/api/v2/teams', { slug: 'racy-members', name: 'Racy members' });
    const { user } = await makeUser(platform);
    await platform.services.db('memberships').insert({ organization_id: org.id, user_id: user.id, role: 'member' });
    const [added] = await queuedBehind(
      (trx) => trx('memberships').where({ organization_id: org.id, user_id: user.id }).forUpdate().first('user_id'),
      [() => http.post(`/api/v2/teams/${teamId}/members`, { token: admin.token, body: { userId: user.id } })],
      (trx) => trx('memberships').where({ organization_id: org.id, user_id: user.id }).delete(),
    );
    expect([added?.status, added?.body]).toEqual([404, { error: 'member not found' }]);
    expect(await auditActions(teamId)).toEqual(['team.create']);
  });
});

describe('membership changes decide on the caller role under the organization lock', () => {
  it('an owner demoted while their request waits can no longer grant the owner role', async () => {
    const made = await makeOrg(platform, ['owner', 'admin', 'member']);
    const first = made.members.owner!;
    const target = made.members.member!;
    const [promoted] = await queuedBehind(
      lockRow('organizations', made.org.id),
      [
        () =>
          http.patch(`/api/v1/organizations/${made.org.slug}/members/${target.user.id}`, {
            token: first.token,
            body: { role: 'owner' },
          }),
      ],
      // Meanwhile a second owner appears and demotes the first one (both committed before the request goes on).
      async (trx) => {
        await trx('memberships')
          .where({ organization_id: made.org.id, user_id: made.members.admin!.user.id })
          .update({ role: 'owner' });
        await trx('memberships')
          .where({ organization_id: made.org.id, user_id: first.user.id })
          .update({ role: 'admin' });
      },
    );
    expect([promoted?.status, promoted?.body]).toEqual([403, { error: 'only an owner can grant the owner role' }]);
    const role = await platform.services
      .db('memberships')
      .where({ organization_id: made.org.id, user_id: target.user.id })
      .first('role');
    expect(role).toEqual({ role: 'member' });
  });

  it('a member removed while their request waits changes nothing', async () => {
    const made = await makeOrg(platform, ['owner', 'admin', 'viewer']);
    const leaving = made.members.admin!;
    const viewer = made.members.viewer!;
    const [changed] = await queuedBehind(
      lockRow('organizations', made.org.id),
      [
        () =>
          http.patch(`/api/v1/organizations/${made.org.slug}/members/${viewer.user.id}`, {
            token: leaving.token,
            body: { role: 'admin' },
          }),
      ],
      (trx) => trx('memberships').where({ organization_id: made.org.id, user_id: leaving.user.id }).delete(),
    );
    expect([changed?.status, changed?.body]).toEqual([
      403,
      { error: 'you are not a member of the active organization' },
    ]);
    const role = await platform.services
      .db('memberships')
      .where({ organization_id: made.org.id, user_id: viewer.user.id })
      .first('role');
    expect(role).toEqual({ role: 'viewer' });
  });
});
