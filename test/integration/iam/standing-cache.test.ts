import pg from 'pg';
import { revokeFamily, touchFamily } from '../../../src/identity/session-repository';
import { makeOrg, makeUser } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { sharedSettings, startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * Issue 34 item 5: each API process caches users' standing (session live, membership role) for seconds, and forgets it
 * at once on change: in the process that made the change before it answers, in every other process through
 * PostgreSQL LISTEN/NOTIFY (src/iam/standing-cache.ts). A TTL of a minute here proves the forgetting is not the TTL.
 */
const LONG_TTL = { AUTH_STANDING_CACHE_TTL: '60s' };
let first: TestPlatform;
let second: TestPlatform;

beforeAll(async () => {
  first = await startTestPlatform({ env: LONG_TTL, worker: false });
  second = await startTestPlatform({
    env: { ...LONG_TTL, ...sharedSettings(first.config) },
    worker: false,
    database: first.database,
  });
}, 120_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

async function login(platform: TestPlatform, email: string, password: string): Promise<string> {
  const res = await httpClient(platform.url).post<{ accessToken: string }>('/api/v1/auth/login', {
    body: { email, password },
  });
  expect(res.status).toBe(200);
  return res.body.accessToken;
}

describe('the standing cache', () => {
  it('refuses a removed member on the same process at once', async () => {
    const { org, members } = await makeOrg(first, ['owner', 'member']);
    const http = httpClient(first.url);
    const list = () => http.get('/api/v2/projects', { token: members.member!.token });
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(200);
    const removed = await http.delete(`/api/v1/organizations/${org.slug}/members/${members.member!.user.id}`, {
      token: members.owner!.token,
    });
    expect(removed.status).toBeLessThan(300);
    expect((await list()).status).toBe(403);
  });

  it('refuses a revoked session on the same process at once', async () => {
    const { user, password } = await makeUser(first);
    const keeper = await login(first, user.email, password);
    const revoked = await login(first, user.email, password);
    const http = httpClient(first.url);
    expect((await http.get('/api/v1/auth/me', { token: revoked })).status).toBe(200);
    expect((await http.get('/api/v1/auth/me', { token: revoked })).status).toBe(200);
    const sessions = await http.get<{ items: { id: string; current: boolean }[] }>('/api/v1/auth/sessions', {
      token: revoked,
    });
    const id = sessions.body.items.find((s) => s.current)!.id;
    expect((await http.delete(`/api/v1/auth/sessions/${id}`, { token: keeper })).status).toBe(204);
    expect((await http.get('/api/v1/auth/me', { token: revoked })).status).toBe(401);
    expect((await http.get('/api/v1/auth/me', { token: keeper })).status).toBe(200);
  });

  it('refuses a removed member and a revoked session on another process within moments (NOTIFY)', async () => {
    const { org, members } = await makeOrg(first, ['owner', 'member']);
    const { user, password } = await makeUser(first);
    const keeper = await login(first, user.email, password);
    const revoked = await login(first, user.email, password);
    const other = httpClient(second.url);
    const list = () => other.get('/api/v2/projects', { token: members.member!.token });
    const me = () => other.get('/api/v1/auth/me', { token: revoked });
    expect([(await list()).status, (await list()).status, (await me()).status, (await me()).status]).toEqual([
      200, 200, 200, 200,
    ]);

    const http = httpClient(first.url);
    await http.delete(`/api/v1/organizations/${org.slug}/members/${members.member!.user.id}`, {
      token: members.owner!.token,
    });
    const sessions = await http.get<{ items: { id: string; current: boolean }[] }>('/api/v1/auth/sessions', {
      token: revoked,
    });
    await http.delete(`/api/v1/auth/sessions/${sessions.body.items.find((s) => s.current)!.id}`, { token: keeper });
    await eventually(async () => (await list()).status === 403 || null, 3000, 'removed member refused elsewhere');
    await eventually(async () => (await me()).status === 401 || null, 3000, 'revoked session refused elsewhere');
  });

  it('keeps a user cached through session use (last_used_at) and forgets it on revocation', async () => {
    const { user, password } = await makeUser(first);
    await login(first, user.email, password);
    const { db, standing } = first.services;
    const family = (await db('session_families').where({ user_id: user.id }).first('id', 'organization_id')) as {
      id: string;
      organization_id: string | null;
    };
    const listener = new pg.Client({ connectionString: first.database.url });
    const notified: string[] = [];
    listener.on('notification', (n) => void notified.push(n.payload ?? ''));
    await listener.connect();
    try {
      await listener.query('LISTEN auth_standing');
      let loads = 0;
      const read = () => standing.read(user.id, 'probe', async () => ++loads);
      // Cached once the LISTEN connection is up and the login's own write hold is over.
      await eventually(async () => ((await read()) === (await read()) && loads > 0) || null, 5000, 'cached');
      const before = loads;

      await touchFamily(db, family.id, family.organization_id);
      expect(await read()).toBe(before);
      await revokeFamily(db, family.id, 'test');
      // Notifications arrive in commit order: once the revocation's is here, the use's would have come before it.
      await eventually(async () => notified.length > 0 || null, 3000, 'revocation notified');
      expect(notified).toEqual([user.id]);
      await eventually(async () => (await read()) > before || null, 3000, 'forgotten after revocation');
    } finally {
      await listener.end();
    }
  });
});
