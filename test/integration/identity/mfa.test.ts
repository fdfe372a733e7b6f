// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { harnessState } from '../../helpers/harness-state';
import {
  authAudit,
  awayFromStepEdge,
  enableTotp,
  login,
  refreshFrom,
  refreshWith,
  signedInUser,
  startIdentityPlatform,
  totp,
  totpAt,
  type IdentityEnv,
} from './identity-harness';

let env: IdentityEnv;

beforeAll(async () => {
  env = await startIdentityPlatform({ MFA_MAX_ATTEMPTS_PER_CHALLENGE: '5', AUTH_RATE_MFA_PER_ACCOUNT: '12' });
});
afterAll(() => env.close());

type Challenge = { mfaRequired: true; mfaToken: string; methods: string[] };

async function challenge(email: string, password: string): Promise<Challenge> {
  const res = await login(env, email, password);
  expect(res.status).toBe(200);
  expect(refreshFrom(res)).toBeUndefined();
  expect(res.body).not.toHaveProperty('accessToken');
  return res.body as Challenge;
}

const verify = (body: Record<string, string>) => env.http.post('/api/v1/auth/mfa/verify', { body });

/** A user with TOTP enabled whose enrolment step lies minutes back, as for anyone who enrolled earlier. */
async function mfaUser() {
  const user = await signedInUser(env);
  const enrolled = await enableTotp(env, user.accessToken);
  await env.platform.services.db('user_mfa').where({ user_id: user.userId }).decrement('last_used_step', 10);
  return { ...user, ...enrolled };
}

describe('TOTP enrolment', () => {
  it('checks the test RFC 6238 implementation against the RFC vector', () => {
    // RFC 6238 appendix B, SHA-1, T=59s: 94287082 (8 digits) whose last 6 digits are 287082.
    expect(totpAt(Buffer.from('12345678901234567890'), 1, 8)).toBe('94287082');
    expect(totpAt(Buffer.from('12345678901234567890'), 1)).toBe('287082');
  });

  it('sets up a sealed secret with URI and QR code, enables with the first code, returns 8 recovery codes once', async () => {
    const user = await signedInUser(env);
    const other = await login(env, user.email, user.password);
    const setup = await env.http.post<{ secret: string; otpauthUri: string; qrCode: string }>(
      '/api/v1/auth/mfa/totp/setup',
      { token: user.accessToken },
    );
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/Delivery%20Platform:/);
    expect(new URL(setup.body.otpauthUri).searchParams.get('secret')).toBe(setup.body.secret);
    expect(setup.body.qrCode).toMatch(/^data:image\/png;base64,/);
    const row = (await env.platform.services.db('user_mfa').where({ user_id: user.userId }).first()) as Record<
      string,
      string
    >;
    expect(JSON.stringify(row)).not.toContain(setup.body.secret);
    expect(row.pending_secret).toMatch(/^v1\./);

    const wrong = await env.http.post('/api/v1/auth/mfa/totp/enable', {
      token: user.accessToken,
      body: { code: '000000' },
    });
    expect(wrong.status).toBe(400);
    const enable = await env.http.post<{ recoveryCodes: string[] }>('/api/v1/auth/mfa/totp/enable', {
      token: user.accessToken,
      body: { code: await totp(setup.body.secret) },
    });
    expect(enable.status).toBe(200);
    expect(enable.body.recoveryCodes).toHaveLength(8);
    expect(new Set(enable.body.recoveryCodes).size).toBe(8);
    const stored = (await env.platform.services
      .db('mfa_recovery_codes')
      .where({ user_id: user.userId })
      .select('code_hash')) as {
      code_hash: string;
    }[];
    expect(stored.every((c) => c.code_hash.startsWith('$argon2id$'))).toBe(true);

    // MFA change ends the other sessions; this one goes on.
    expect(
      (await env.http.get('/api/v1/auth/me', { token: (other.body as { accessToken: string }).accessToken })).status,
    ).toBe(401);
    const me = await env.http.get('/api/v1/auth/me', { token: user.accessToken });
    expect(me.body).toMatchObject({ mfa: { state: 'verified', totpEnabled: true, recoveryCodesRemaining: 8 } });
    await env.smtp.waitFor(user.email, /two-factor authentication enabled/i);
    expect((await authAudit(env, { user_id: user.userId })).map((e) => e.action)).toContain('auth.mfa.enable');
    const again = await env.http.post('/api/v1/auth/mfa/totp/setup', { token: user.accessToken });
    expect(again.status).toBe(409);
  });
});

describe('login with TOTP', () => {
  it('A-17 and A-12: the password step gives no API access; a code works once, its reuse is refused, logged and mailed', async () => {
    await awayFromStepEdge();
    const user = await mfaUser();
    const first = await challenge(user.email, user.password);
    expect(first.methods).toEqual(['totp', 'recovery_code', 'email']);
    for (const path of ['/api/v1/auth/me', '/api/v1/auth/sessions', '/api/v2/audit-logs']) {
      expect((await env.http.get(path, { token: first.mfaToken })).status).toBe(401);
    }
    expect(
      (await env.http.post('/api/v1/auth/refresh', { headers: { Cookie: `__Host-refresh_token=${first.mfaToken}` } }))
        .status,
    ).toBe(401);

    const code = await totp(user.secret);
    const ok = await verify({ mfaToken: first.mfaToken, code });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ tokenType: 'Bearer', user: { id: user.userId } });
    expect(refreshFrom(ok)).toBeDefined();
    // The challenge is spent.
    expect((await verify({ mfaToken: first.mfaToken, code })).status).toBe(401);

    const second = await challenge(user.email, user.password);
    const replay = await verify({ mfaToken: second.mfaToken, code });
    expect(replay.status).toBe(401);
    await env.smtp.waitFor(user.email, /used twice/i);
    const events = await authAudit(env, { user_id: user.userId });
    expect(events.find((e) => e.action === 'auth.mfa.totp_reuse')).toMatchObject({ status: 'blocked' });
    expect(events.filter((e) => e.action === 'auth.login' && e.status === 'success').at(-1)?.details).toMatchObject({
      factors: ['password', 'totp'],
    });
  });

  it('inside the enrolment step, the code says to wait for the next one (and no more); a wrong code stays "invalid code"', async () => {
    await awayFromStepEdge();
    const user = await signedInUser(env);
    const setup = await env.http.post<{ secret: string }>('/api/v1/auth/mfa/totp/setup', { token: user.accessToken });
    const enrolment = await totp(setup.body.secret);
    const enabled = await env.http.post('/api/v1/auth/mfa/totp/enable', {
      token: user.accessToken,
      body: { code: enrolment },
    });
    expect(enabled.status).toBe(200);
    const sameWindow = await verify({
      mfaToken: (await challenge(user.email, user.password)).mfaToken,
      code: enrolment,
    });
    expect([sameWindow.status, sameWindow.body]).toEqual([
      401,
      { error: 'this code was already used: wait for the next code from your authenticator app' },
    ]);
    const wrong = String((Number(enrolment) + 1) % 1_000_000).padStart(6, '0');
    const invalid = await verify({ mfaToken: (await challenge(user.email, user.password)).mfaToken, code: wrong });
    expect([invalid.status, invalid.body]).toEqual([401, { error: 'invalid code' }]);
  });

  it('A-13: accepts the current step and one step back; refuses t-2, t+1 and t+2', async () => {
    await awayFromStepEdge();
    const user = await mfaUser();
    const c = await challenge(user.email, user.password);
    for (const offset of [-2, 1, 2]) {
      expect((await verify({ mfaToken: c.mfaToken, code: await totp(user.secret, offset) })).status).toBe(401);
    }
    expect((await verify({ mfaToken: c.mfaToken, code: await totp(user.secret, -1) })).status).toBe(200);
    const next = await challenge(user.email, user.password);
    expect((await verify({ mfaToken: next.mfaToken, code: await totp(user.secret, 0) })).status).toBe(200);
  });

  it('A-14: a challenge dies after 5 wrong guesses (429), and the account cap holds across new challenges', async () => {
    await awayFromStepEdge();
    const user = await mfaUser();
    const c = await challenge(user.email, user.password);
    for (let i = 0; i < 5; i++) {
      expect((await verify({ mfaToken: c.mfaToken, code: String(100000 + i) })).status).toBe(401);
    }
    const dead = await verify({ mfaToken: c.mfaToken, code: await totp(user.secret) });
    expect(dead.status).toBe(429);
    expect(Number(dead.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await authAudit(env, { user_id: user.userId })).map((e) => e.action)).toContain(
      'auth.mfa.challenge_locked',
    );

    // Counted for the account so far: the enrolment code and these 6. AUTH_RATE_MFA_PER_ACCOUNT=12 lets 5 more
    // guesses through on a new challenge, then refuses on any challenge, even the right code.
    const c2 = await challenge(user.email, user.password);
    for (let i = 0; i < 5; i++) {
      expect((await verify({ mfaToken: c2.mfaToken, code: String(200000 + i) })).status).toBe(401);
    }
    const c3 = await challenge(user.email, user.password);
    const capped = await verify({ mfaToken: c3.mfaToken, code: await totp(user.secret) });
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('recovery codes', () => {
  it('A-15: a recovery code works once, is mailed about, and regeneration kills the old set', async () => {
    await awayFromStepEdge();
    const user = await mfaUser();
    const [first, second] = user.recoveryCodes;
    const c = await challenge(user.email, user.password);
    const used = await verify({ mfaToken: c.mfaToken, recoveryCode: (first ?? '').toUpperCase() });
    expect(used.status).toBe(200);
    await env.smtp.waitFor(user.email, /recovery code was used/i);
    const events = await authAudit(env, { user_id: user.userId });
    expect(events.find((e) => e.action === 'auth.mfa.recovery_code_used')?.details).toMatchObject({ remaining: 7 });

    const c2 = await challenge(user.email, user.password);
    expect((await verify({ mfaToken: c2.mfaToken, recoveryCode: first ?? '' })).status).toBe(401);

    const token = (used.body as { accessToken: string }).accessToken;
    const noProof = await env.http.post('/api/v1/auth/mfa/recovery-codes/regenerate', { token, body: {} });
    expect(noProof.status).toBe(400);
    const regen = await env.http.post<{ recoveryCodes: string[] }>('/api/v1/auth/mfa/recovery-codes/regenerate', {
      token,
      body: { code: await totp(user.secret) },
    });
    expect(regen.status).toBe(200);
    expect(regen.body.recoveryCodes).toHaveLength(8);
    const c3 = await challenge(user.email, user.password);
    expect((await verify({ mfaToken: c3.mfaToken, recoveryCode: second ?? '' })).status).toBe(401);
    expect((await verify({ mfaToken: c3.mfaToken, recoveryCode: regen.body.recoveryCodes[0] ?? '' })).status).toBe(200);
  });

  it('reports recovery-needed when every code is used', async () => {
    const user = await mfaUser();
    let token = user.accessToken;
    for (const code of user.recoveryCodes) {
      const c = await challenge(user.email, user.password);
      const res = await verify({ mfaToken: c.mfaToken, recoveryCode: code });
      expect(res.status).toBe(200);
      token = (res.body as { accessToken: string }).accessToken;
    }
    const me = await env.http.get('/api/v1/auth/me', { token });
    expect(me.body).toMatchObject({ mfa: { state: 'recovery-needed', recoveryCodesRemaining: 0 } });
  });
});

describe('email OTP', () => {
  it('A-16: a mailed code works for its own challenge only, a resend replaces it, and it expires', async () => {
    const user = await mfaUser();
    const c1 = await challenge(user.email, user.password);
    const sent = await env.http.post('/api/v1/auth/mfa/email/send', { body: { mfaToken: c1.mfaToken } });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ sent: true, expiresIn: 600 });
    const codeOf = async (n: number) =>
      /code is (\d{6})/.exec((await env.smtp.waitFor(user.email, /sign-in code/i, n)).text)?.[1] ?? '';
    const oldCode = await codeOf(0);
    const row = await env.platform.services
      .db('mfa_challenges')
      .where({ user_id: user.userId })
      .orderBy('created_at', 'desc')
      .first('email_code_hash');
    expect(JSON.stringify(row)).not.toContain(oldCode);

    // A code of an earlier login attempt is worthless on a new one.
    const c2 = await challenge(user.email, user.password);
    expect((await verify({ mfaToken: c2.mfaToken, emailCode: oldCode })).status).toBe(401);

    await env.http.post('/api/v1/auth/mfa/email/send', { body: { mfaToken: c1.mfaToken } });
    const newCode = await codeOf(1);
    if (newCode !== oldCode) expect((await verify({ mfaToken: c1.mfaToken, emailCode: oldCode })).status).toBe(401);

    // Ten minutes pass for the stored code (moved in the database, not by waiting).
    const db = env.platform.services.db;
    await db('mfa_challenges')
      .where({ user_id: user.userId })
      .update({ email_code_expires_at: db.raw("now() - interval '1 second'") });
    expect((await verify({ mfaToken: c1.mfaToken, emailCode: newCode })).status).toBe(401);

    const c3 = await challenge(user.email, user.password);
    await env.http.post('/api/v1/auth/mfa/email/send', { body: { mfaToken: c3.mfaToken } });
    const fresh = await codeOf(2);
    const ok = await verify({ mfaToken: c3.mfaToken, emailCode: fresh });
    expect(ok.status).toBe(200);
    expect((await authAudit(env, { user_id: user.userId })).at(-1)?.details).toMatchObject({
      factors: ['password', 'email_code'],
    });
  });

  it('refuses to send for a dead or unknown challenge', async () => {
    const res = await env.http.post('/api/v1/auth/mfa/email/send', {
      body: { mfaToken: randomBytes(32).toString('base64url') },
    });
    expect(res.status).toBe(401);
  });
});

describe('disabling and resetting MFA', () => {
  it('disables with a recovery code (not with a wrong code), ends other sessions, and login is password-only again', async () => {
    const user = await mfaUser();
    const c = await challenge(user.email, user.password);
    const second = await verify({ mfaToken: c.mfaToken, recoveryCode: user.recoveryCodes[0] ?? '' });
    const secondToken = (second.body as { accessToken: string }).accessToken;
    const secondRefresh = refreshFrom(second) ?? '';
    expect(
      (await env.http.post('/api/v1/auth/mfa/disable', { token: user.accessToken, body: { code: '123456' } })).status,
    ).toBe(403);
    const both = await env.http.post('/api/v1/auth/mfa/disable', {
      token: user.accessToken,
      body: { code: '123456', recoveryCode: user.recoveryCodes[1] ?? '' },
    });
    expect(both.status).toBe(400);
    const off = await env.http.post('/api/v1/auth/mfa/disable', {
      token: user.accessToken,
      body: { recoveryCode: user.recoveryCodes[1] ?? '' },
    });
    expect(off.status).toBe(200);
    expect((await env.http.get('/api/v1/auth/me', { token: secondToken })).status).toBe(401);
    expect((await refreshWith(env, secondRefresh)).status).toBe(401);
    const plain = await login(env, user.email, user.password);
    expect(plain.body).toHaveProperty('accessToken');
    await env.smtp.waitFor(user.email, /two-factor authentication disabled/i);
    expect((await authAudit(env, { user_id: user.userId })).map((e) => e.action)).toContain('auth.mfa.disable');
  });

  it('re-authentication for an MFA change: a replayed TOTP code is blocked, audited and mailed; a recovery code used is audited', async () => {
    await awayFromStepEdge();
    const user = await mfaUser();
    const code = await totp(user.secret);
    const signedIn = await verify({ mfaToken: (await challenge(user.email, user.password)).mfaToken, code });
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body as { accessToken: string }).accessToken;

    // A-12 on the re-authentication path: the code that just signed in cannot also switch MFA off.
    const replay = await env.http.post('/api/v1/auth/mfa/disable', { token, body: { code } });
    expect(replay.status).toBe(403);
    await env.smtp.waitFor(user.email, /used twice/i);
    const reuse = (await authAudit(env, { user_id: user.userId })).filter((e) => e.action === 'auth.mfa.totp_reuse');
    expect(reuse).toHaveLength(1);
    expect(reuse[0]).toMatchObject({
      status: 'blocked',
      details: expect.objectContaining({ factor: 'totp', reason: 'reused', purpose: 'reauthentication' }),
    });

    const regen = await env.http.post('/api/v1/auth/mfa/recovery-codes/regenerate', {
      token,
      body: { recoveryCode: user.recoveryCodes[0] ?? '' },
    });
    expect(regen.status).toBe(200);
    const used = (await authAudit(env, { user_id: user.userId })).filter(
      (e) => e.action === 'auth.mfa.recovery_code_used',
    );
    expect(used).toHaveLength(1);
    expect(used[0]?.details).toMatchObject({ remaining: 7, purpose: 'reauthentication' });
  });

  it("lets an organization owner (only) reset a member's MFA, audited in the organization", async () => {
    const owner = await signedInUser(env);
    const admin = await signedInUser(env);
    const member = await mfaUser();
    const db = env.platform.services.db;
    const [org] = (await db('organizations')
      .insert({ slug: `mfa-${randomBytes(3).toString('hex')}`, name: 'MFA Org' })
      .returning(['id', 'slug'])) as { id: string; slug: string }[];
    if (!org) throw new Error('no org');
    await db('memberships').insert([
      { organization_id: org.id, user_id: owner.userId, role: 'owner' },
      { organization_id: org.id, user_id: admin.userId, role: 'admin' },
      { organization_id: org.id, user_id: member.userId, role: 'member' },
    ]);
    const tokenFor = async (u: { email: string; password: string }) =>
      ((await login(env, u.email, u.password)).body as { accessToken: string }).accessToken;
    const memberSession = await verify({
      mfaToken: (await challenge(member.email, member.password)).mfaToken,
      recoveryCode: member.recoveryCodes[0] ?? '',
    });
    const path = `/api/v1/organizations/${org.slug}/members/${member.userId}/mfa/reset`;
    expect((await env.http.post(path, { token: await tokenFor(admin) })).status).toBe(403);
    const ownerToken = await tokenFor(owner);
    expect(
      (
        await env.http.post(`/api/v1/organizations/${org.slug}/members/${admin.userId}x/mfa/reset`, {
          token: ownerToken,
        })
      ).status,
    ).toBe(400);
    const reset = await env.http.post(path, { token: ownerToken });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ userId: member.userId, mfa: 'not-configured' });
    expect(
      (await env.http.get('/api/v1/auth/me', { token: (memberSession.body as { accessToken: string }).accessToken }))
        .status,
    ).toBe(401);
    expect((await login(env, member.email, member.password)).body).toHaveProperty('accessToken');
    await env.smtp.waitFor(member.email, /was reset/i);
    const entries = await authAudit(env, { action: 'auth.mfa.reset', organization_id: org.id });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ user_id: owner.userId, actor: owner.email });
    expect((await env.http.post(path, { token: ownerToken })).status).toBe(409);
  });

  async function runAdmin(args: string[]) {
    const root = path.resolve(__dirname, '../../..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/admin.ts', ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: env.platform.database.url,
          DATA_DIR: env.platform.config.dataDir,
          SMTP_URL: env.smtp.url,
          PUBLIC_URL: env.platform.config.publicUrl,
          LOG_LEVEL: 'silent',
          PLATFORM_TEST_HARNESS: JSON.stringify(harnessState()),
        },
        timeout: 60_000,
      },
    );
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  it('the operator CLI resets MFA by email (npm run admin -- reset-mfa)', async () => {
    const user = await mfaUser();
    expect(await runAdmin(['reset-mfa', '--email', user.email])).toMatchObject({
      userId: user.userId,
      mfa: 'not-configured',
    });
    expect((await login(env, user.email, user.password)).body).toHaveProperty('accessToken');
    const entries = await authAudit(env, { action: 'auth.mfa.reset', resource_id: user.userId });
    expect(entries[0]).toMatchObject({ actor: 'operator-cli' });
    await env.smtp.waitFor(user.email, /was reset/i);
  });

  it('issue 16.6: an owner cannot reset the MFA of a member of another organization; the operator can, audited in each', async () => {
    const db = env.platform.services.db;
    const ownerB = await signedInUser(env);
    const shared = await mfaUser();
    const orgs = (await db('organizations')
      .insert([
        { slug: `mfa-a-${randomBytes(3).toString('hex')}`, name: 'Protected A' },
        { slug: `mfa-b-${randomBytes(3).toString('hex')}`, name: 'Other B' },
      ])
      .returning(['id', 'slug'])) as { id: string; slug: string }[];
    const [orgA, orgB] = orgs as [{ id: string; slug: string }, { id: string; slug: string }];
    await db('memberships').insert([
      { organization_id: orgA.id, user_id: shared.userId, role: 'admin' },
      { organization_id: orgB.id, user_id: shared.userId, role: 'member' },
      { organization_id: orgB.id, user_id: ownerB.userId, role: 'owner' },
    ]);
    const ownerToken = ((await login(env, ownerB.email, ownerB.password)).body as { accessToken: string }).accessToken;
    const refused = await env.http.post(`/api/v1/organizations/${orgB.slug}/members/${shared.userId}/mfa/reset`, {
      token: ownerToken,
    });
    expect([refused.status, (refused.body as { error: string }).error]).toEqual([
      403,
      'this member also belongs to other organizations: only the instance operator can reset their MFA',
    ]);
    expect(await db('user_mfa').where({ user_id: shared.userId })).toHaveLength(1);
    expect(await authAudit(env, { action: 'auth.mfa.reset', resource_id: shared.userId })).toHaveLength(0);

    await runAdmin(['reset-mfa', '--email', shared.email]);
    const entries = await authAudit(env, { action: 'auth.mfa.reset', resource_id: shared.userId });
    expect(entries.map((e) => e.organization_id).sort()).toEqual([orgA.id, orgB.id].sort());
    await env.smtp.waitFor(shared.email, /was reset/i);
  });

  it('the operator CLI ends every session of a user (npm run admin -- end-sessions)', async () => {
    const user = await signedInUser(env);
    const other = await login(env, user.email, user.password);
    expect(await runAdmin(['end-sessions', '--email', user.email])).toMatchObject({ sessionsEnded: 2 });
    expect((await env.http.get('/api/v1/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await refreshWith(env, refreshFrom(other) ?? '')).status).toBe(401);
    const entries = await authAudit(env, { action: 'auth.session.revoke', resource_id: user.userId });
    expect(entries[0]).toMatchObject({ actor: 'operator-cli' });
  });
});
