import { randomBytes, randomUUID, createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, exportJWK, generateKeyPair, importPKCS8 } from 'jose';
import {
  COOKIE,
  PUBLIC_URL,
  SAME_ORIGIN,
  authAudit,
  cookieHeader,
  login,
  refreshFrom,
  refreshWith,
  signedInUser,
  startIdentityPlatform,
  type IdentityEnv,
} from './identity-harness';

let env: IdentityEnv;

beforeAll(async () => {
  env = await startIdentityPlatform({ SESSION_DURATION: '2h', SESSION_IDLE_TIMEOUT: '30m' });
});
afterAll(() => env.close());

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
const accessOf = (res: { body: unknown }) => (res.body as { accessToken: string }).accessToken;

describe('refresh cookie', () => {
  it('A-21: HttpOnly, Secure, SameSite=Strict, __Host- prefix, Path=/, no Domain, never in the JSON body', async () => {
    const user = await signedInUser(env);
    const res = await login(env, user.email, user.password);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`)) ?? '';
    const attributes = cookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite=strict', 'path=/']));
    expect(attributes.some((a) => a.startsWith('domain'))).toBe(false);
    const maxAge = Number(attributes.find((a) => a.startsWith('max-age='))?.split('=')[1]);
    // SESSION_DURATION=2h: the cookie lives as long as the session family may.
    expect(maxAge).toBeGreaterThan(7100);
    expect(maxAge).toBeLessThanOrEqual(7200);
    const refresh = refreshFrom(res) ?? '';
    expect(refresh.length).toBeGreaterThanOrEqual(43); // 256 bits base64url
    expect(res.text).not.toContain(refresh);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('stores only a hash of the refresh token', async () => {
    const user = await signedInUser(env);
    const stored = await env.platform.services.db('refresh_tokens').where({ token_hash: user.refresh }).first('id');
    expect(stored).toBeUndefined();
    const hashed = await env.platform.services
      .db('refresh_tokens')
      .whereRaw("token_hash = encode(digest(?, 'sha256'), 'hex')", [user.refresh])
      .first('id');
    expect(hashed).toBeDefined();
  });
});

describe('rotation and reuse detection', () => {
  it('rotates on every refresh and issues a working access token', async () => {
    const user = await signedInUser(env);
    const r = await refreshWith(env, user.refresh);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900, user: { id: user.userId } });
    const next = refreshFrom(r);
    expect(next).toBeDefined();
    expect(next).not.toBe(user.refresh);
    expect((await env.http.get('/api/v1/auth/me', { token: accessOf(r) })).status).toBe(200);
    expect(r.text).not.toContain(next ?? '-');
  });

  it('A-01: reusing R1 gives 401, kills R2 (the newest) and its access token, and is audited', async () => {
    const user = await signedInUser(env);
    const first = await refreshWith(env, user.refresh);
    const r2 = refreshFrom(first) ?? '';
    const again = await refreshWith(env, user.refresh);
    expect(again.status).toBe(401);
    expect(refreshFrom(again)).toBeUndefined();
    expect(again.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=;`))).toBe(true);
    expect((await refreshWith(env, r2)).status).toBe(401);
    expect((await env.http.get('/api/v1/auth/me', { token: accessOf(first) })).status).toBe(401);
    const reuse = (await authAudit(env, { user_id: user.userId })).filter((e) => e.action === 'auth.refresh_reuse');
    expect(reuse).toHaveLength(1);
    expect(reuse[0]).toMatchObject({ status: 'blocked', details: expect.objectContaining({ familyRevoked: true }) });
  });

  it("A-02: an attacker's refresh with a stolen R1 dies when the user presents R1", async () => {
    const user = await signedInUser(env);
    const attacker = await refreshWith(env, user.refresh);
    expect(attacker.status).toBe(200);
    const stolen = refreshFrom(attacker) ?? '';
    expect((await refreshWith(env, user.refresh)).status).toBe(401);
    expect((await refreshWith(env, stolen)).status).toBe(401);
    expect((await env.http.get('/api/v1/auth/me', { token: accessOf(attacker) })).status).toBe(401);
  });

  it("A-02, later: a used R1 presented after its own idle deadline still ends the attacker's family", async () => {
    const db = env.platform.services.db;
    const user = await signedInUser(env);
    const attacker = await refreshWith(env, user.refresh);
    const stolen = refreshFrom(attacker) ?? '';
    // The user comes back after R1's idle timeout (moved in the database); the attacker kept the family alive.
    await db('refresh_tokens')
      .whereRaw("token_hash = encode(digest(?, 'sha256'), 'hex')", [user.refresh])
      .update({ idle_expires_at: db.raw("now() - interval '1 second'") });
    expect((await refreshWith(env, user.refresh)).status).toBe(401);
    expect((await refreshWith(env, stolen)).status).toBe(401);
    expect((await env.http.get('/api/v1/auth/me', { token: accessOf(attacker) })).status).toBe(401);
    const reuse = (await authAudit(env, { user_id: user.userId })).filter((e) => e.action === 'auth.refresh_reuse');
    expect(reuse).toHaveLength(1);
    expect(reuse[0]).toMatchObject({ status: 'blocked', details: expect.objectContaining({ familyRevoked: true }) });
  });

  it('A-03: ten parallel refreshes with one token: exactly one 200, never two live families', async () => {
    const user = await signedInUser(env);
    const results = await Promise.all(Array.from({ length: 10 }, () => refreshWith(env, user.refresh)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(9);
    const live = await env.platform.services
      .db('refresh_tokens as r')
      .join('session_families as f', 'f.id', 'r.family_id')
      .where('f.user_id', user.userId)
      .whereNull('r.used_at')
      .whereNull('f.revoked_at')
      .count<{ n: string }[]>('* as n');
    // No overlap window: the nine losers count as reuse and end the family (docs/auth.md), the winner's new token
    // included, so nothing of this login stays live.
    expect(Number(live[0]?.n)).toBe(0);
    const winner = results.find((r) => r.status === 200);
    const next = winner && refreshFrom(winner);
    expect(next).toBeDefined();
    expect((await refreshWith(env, next ?? '')).status).toBe(401);
    const reuse = (await authAudit(env, { user_id: user.userId })).filter((e) => e.action === 'auth.refresh_reuse');
    expect(reuse).toHaveLength(9);
  });

  it('refuses a refresh token past its idle timeout or its family past its absolute lifetime', async () => {
    const db = env.platform.services.db;
    const idle = await signedInUser(env);
    const idleRow = (await db('refresh_tokens as r')
      .join('session_families as f', 'f.id', 'r.family_id')
      .where('f.user_id', idle.userId)
      .first('r.id', db.raw('extract(epoch from r.idle_expires_at - now()) as left'))) as { id: string; left: string };
    expect(Number(idleRow.left)).toBeGreaterThan(29 * 60); // SESSION_IDLE_TIMEOUT=30m
    expect(Number(idleRow.left)).toBeLessThanOrEqual(30 * 60);
    // Time passes in the database, not in the test: the token's idle deadline moves into the past.
    await db('refresh_tokens')
      .where({ id: idleRow.id })
      .update({ idle_expires_at: db.raw("now() - interval '1 second'") });
    expect((await refreshWith(env, idle.refresh)).status).toBe(401);

    const old = await signedInUser(env);
    await db('session_families')
      .where({ user_id: old.userId })
      .update({ expires_at: db.raw("now() - interval '1 second'") });
    expect((await refreshWith(env, old.refresh)).status).toBe(401);
  });
});

describe('logout and CSRF', () => {
  it('A-04: logout revokes the family, clears the cookie, and the access token stops at once', async () => {
    const user = await signedInUser(env);
    const out = await env.http.post('/api/v1/auth/logout', { headers: cookieHeader(user.refresh) });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().some((c) => /^__Host-refresh_token=; Max-Age=0/.test(c))).toBe(true);
    expect((await env.http.get('/api/v1/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await refreshWith(env, user.refresh)).status).toBe(401);
    const actions = (await authAudit(env, { user_id: user.userId })).map((e) => e.action);
    expect(actions).toContain('auth.logout');
  });

  it('logout with only a bearer token ends that session', async () => {
    const user = await signedInUser(env);
    expect((await env.http.post('/api/v1/auth/logout', { token: user.accessToken })).status).toBe(204);
    expect((await refreshWith(env, user.refresh)).status).toBe(401);
  });

  it('refuses cookie-authenticated refresh and logout from a foreign Origin', async () => {
    const user = await signedInUser(env);
    const foreign = { Cookie: `${COOKIE}=${user.refresh}`, Origin: 'https://evil.example' };
    expect((await env.http.post('/api/v1/auth/refresh', { headers: foreign })).status).toBe(403);
    expect((await env.http.post('/api/v1/auth/logout', { headers: foreign })).status).toBe(403);
    const crossSite = { Cookie: `${COOKIE}=${user.refresh}`, 'Sec-Fetch-Site': 'cross-site' };
    expect((await env.http.post('/api/v1/auth/refresh', { headers: crossSite })).status).toBe(403);
    // Neither attempt touched the session.
    expect((await refreshWith(env, user.refresh)).status).toBe(200);
    expect((await env.http.post('/api/v1/auth/refresh', { headers: SAME_ORIGIN })).status).toBe(401);
  });
});

describe('access token verification (A-05 and A-06)', () => {
  const keyFile = () => path.join(env.platform.config.dataDir, 'secrets', 'jwt-signing-key.json');
  const realKeys = () => JSON.parse(fs.readFileSync(keyFile(), 'utf8')) as { privatePem: string; publicPem: string };
  const kid = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid: string }).kid;

  async function forge(
    user: { userId: string; email: string; accessToken: string },
    opts: { header?: Record<string, unknown>; claims?: Record<string, unknown>; key?: 'real' | 'foreign' } = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    const sid = claimsOf(user.accessToken).sid;
    const claims = {
      sub: user.userId,
      uid: user.userId,
      email: user.email,
      org_id: null,
      role: null,
      sid,
      iss: PUBLIC_URL,
      aud: 'delivery-platform-api',
      jti: randomUUID(),
      iat: now,
      exp: now + 600,
      ...opts.claims,
    };
    const key =
      opts.key === 'foreign'
        ? (await generateKeyPair('ES256')).privateKey
        : await importPKCS8(realKeys().privatePem, 'ES256');
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: kid(user.accessToken), ...opts.header })
      .sign(key);
  }

  const me = (token: string) => env.http.get('/api/v1/auth/me', { token });

  it('accepts a correctly forged control token, so the refusals below are about the defect alone', async () => {
    const user = await signedInUser(env);
    expect((await me(await forge(user))).status).toBe(200);
  });

  it('A-05: alg none, HS256 keyed with the public key, unknown kid, jku header: 401', async () => {
    const user = await signedInUser(env);
    const [header, payload] = user.accessToken.split('.');
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const h = JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const none = `${b64({ ...h, alg: 'none' })}.${payload}.`;
    expect((await me(none)).status).toBe(401);

    const hsHeader = b64({ ...h, alg: 'HS256' });
    const hsSig = createHmac('sha256', realKeys().publicPem).update(`${hsHeader}.${payload}`).digest('base64url');
    expect((await me(`${hsHeader}.${payload}.${hsSig}`)).status).toBe(401);

    const unknownKid = await forge(user, { key: 'foreign', header: { kid: randomBytes(8).toString('hex') } });
    expect((await me(unknownKid)).status).toBe(401);

    const attacker = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(attacker.publicKey)), kid: 'attacker' };
    const jku = await new SignJWT({ ...claimsOf(user.accessToken), jti: randomUUID() })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'attacker', jku: 'https://evil.example/jwks', jwk })
      .sign(attacker.privateKey);
    expect((await me(jku)).status).toBe(401);
  });

  it('A-06: wrong aud, wrong iss, expired, nbf in the future, wrong typ, refresh token as bearer: 401', async () => {
    const user = await signedInUser(env);
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      await forge(user, { claims: { aud: 'another-api' } }),
      await forge(user, { claims: { iss: 'https://evil.example' } }),
      await forge(user, { key: 'foreign', claims: { iat: now - 1200, exp: now - 300 } }),
      await forge(user, { claims: { nbf: now + 600 } }),
      await forge(user, { header: { typ: 'JWT' } }),
      user.refresh,
    ];
    for (const token of cases) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'missing or invalid token' });
    }
  });

  it('an expired token of ours says it expired and how to get a new one; a forged expired one does not', async () => {
    const user = await signedInUser(env);
    const now = Math.floor(Date.now() / 1000);
    const expired = await me(await forge(user, { claims: { iat: now - 1200, exp: now - 300 } }));
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      error:
        `missing or invalid token: the access token expired at ${new Date((now - 300) * 1000).toISOString()}; ` +
        'refresh it (POST /api/v1/auth/refresh) or sign in again',
    });
  });
});

describe('sessions', () => {
  it("lists the caller's live sessions and ends one; its tokens stop at once", async () => {
    const a = await signedInUser(env);
    const second = await login(env, a.email, a.password, { 'User-Agent': 'second-device' });
    const list = await env.http.get<{ items: { id: string; current: boolean; userAgent: string }[] }>(
      '/api/v1/auth/sessions',
      { token: a.accessToken },
    );
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    const current = list.body.items.filter((s) => s.current);
    expect(current).toHaveLength(1);
    const other = list.body.items.find((s) => !s.current);
    expect(other?.userAgent).toBe('second-device');
    expect((await env.http.delete(`/api/v1/auth/sessions/${other?.id}`, { token: a.accessToken })).status).toBe(204);
    expect((await env.http.get('/api/v1/auth/me', { token: accessOf(second) })).status).toBe(401);
    expect((await refreshWith(env, refreshFrom(second) ?? '')).status).toBe(401);
    expect((await env.http.delete(`/api/v1/auth/sessions/${other?.id}`, { token: a.accessToken })).status).toBe(404);
    const b = await signedInUser(env);
    const bSessions = await env.http.get<{ items: { id: string }[] }>('/api/v1/auth/sessions', {
      token: b.accessToken,
    });
    const bId = bSessions.body.items[0]?.id;
    expect((await env.http.delete(`/api/v1/auth/sessions/${bId}`, { token: a.accessToken })).status).toBe(404);
    expect((await env.http.delete('/api/v1/auth/sessions/not-a-uuid', { token: a.accessToken })).status).toBe(400);
  });
});

describe('organization context', () => {
  async function org(slug: string) {
    const [row] = (await env.platform.services
      .db('organizations')
      .insert({ slug: `${slug}-${randomBytes(3).toString('hex')}`, name: slug })
      .returning(['id', 'slug'])) as { id: string; slug: string }[];
    if (!row) throw new Error('no org');
    return row;
  }
  const join = (orgId: string, userId: string, role: string) =>
    env.platform.services.db('memberships').insert({ organization_id: orgId, user_id: userId, role });

  it('activates the only organization at login; with two, none until chosen', async () => {
    const user = await signedInUser(env);
    const a = await org('alpha');
    await join(a.id, user.userId, 'admin');
    const one = await login(env, user.email, user.password);
    expect(one.body).toMatchObject({ organization: { id: a.id, slug: a.slug, role: 'admin' } });
    expect(claimsOf(accessOf(one))).toMatchObject({ org_id: a.id, role: 'admin', sub: user.userId, uid: user.userId });

    const b = await org('beta');
    await join(b.id, user.userId, 'viewer');
    const two = await login(env, user.email, user.password);
    expect(two.body).toMatchObject({ organization: null });
    expect(claimsOf(accessOf(two))).toMatchObject({ org_id: null, role: null });
    // An organization route without context says so.
    const noCtx = await env.http.get('/api/v2/audit-logs', {
      token: accessOf(two),
      headers: { 'X-Organization-ID': a.id },
    });
    expect(noCtx.status).toBe(400);
    expect(noCtx.body).toEqual({ error: 'missing organization context' });
  });

  it('PUT active-organization issues a token for a member organization and refuses others with 403', async () => {
    const user = await signedInUser(env);
    const a = await org('gamma');
    const outsider = await org('delta');
    await join(a.id, user.userId, 'member');
    const put = await env.http.put('/api/v1/auth/active-organization', {
      token: user.accessToken,
      body: { organizationId: a.id },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900, organization: { id: a.id, role: 'member' } });
    expect(claimsOf(accessOf(put))).toMatchObject({ org_id: a.id, role: 'member' });
    const me = await env.http.get('/api/v1/auth/me', { token: accessOf(put) });
    expect(me.body).toMatchObject({ organization: { id: a.id } });
    const refused = await env.http.put('/api/v1/auth/active-organization', {
      token: user.accessToken,
      body: { organizationId: outsider.id },
    });
    expect(refused.status).toBe(403);
    // The choice sticks to the session: the next refresh keeps it.
    const refreshed = await refreshWith(env, user.refresh);
    expect(refreshed.body).toMatchObject({ organization: { id: a.id } });
  });

  it('X-Organization-ID is honoured on refresh only, and only for memberships', async () => {
    const user = await signedInUser(env);
    const a = await org('eps');
    const b = await org('zeta');
    const outsider = await org('eta');
    await join(a.id, user.userId, 'owner');
    await join(b.id, user.userId, 'viewer');
    const denied = await refreshWith(env, user.refresh, { 'X-Organization-ID': outsider.id });
    expect(denied.status).toBe(403);
    // A refused choice does not spend the refresh token.
    const chosen = await refreshWith(env, user.refresh, { 'X-Organization-ID': b.id });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ organization: { id: b.id, role: 'viewer' } });
    const token = accessOf(chosen);
    expect(claimsOf(token)).toMatchObject({ org_id: b.id, role: 'viewer' });
    const me = await env.http.get('/api/v1/auth/me', { token, headers: { 'X-Organization-ID': a.id } });
    expect(me.body).toMatchObject({ organization: { id: b.id, role: 'viewer' } });
    const bad = await refreshWith(env, refreshFrom(chosen) ?? '', { 'X-Organization-ID': 'not-an-id' });
    expect(bad.status).toBe(400);
  });
});
