import fs from 'node:fs';
import path from 'node:path';
import { createUser } from '../../../src/admin/operator-commands';
import { sweepStaleAuthRows } from '../../../src/identity/stale-auth-rows';
import { operatorDeps } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { parseMail, tokenFromMail } from '../../helpers/smtp-capture';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { strongPassword, totp, uniqueEmail } from './identity-harness';

/**
 * Two platforms with their own databases: the defaults with no SMTP server (mail goes to the .eml spool) on plain
 * http, and one behind a trusted proxy with the login lock at the NIST cap of 100 consecutive failures.
 */
let plain: TestPlatform;
let proxied: TestPlatform;

beforeAll(async () => {
  plain = await startTestPlatform({
    worker: false,
    env: { AUTH_RATE_RESET_PER_ADDRESS: '5', AUTH_RATE_REFRESH_PER_ADDRESS: '3', AUTH_RATE_LOGIN_PER_ADDRESS: '1000' },
  });
  proxied = await startTestPlatform({
    worker: false,
    env: {
      TRUSTED_PROXY_COUNT: '1',
      LOGIN_DELAY_AFTER_FAILURES: '100',
      LOGIN_LOCK_AFTER_FAILURES: '100',
      AUTH_RATE_LOGIN_PER_ACCOUNT: '1000',
      AUTH_RATE_LOGIN_PER_ADDRESS: '5',
    },
  });
});
afterAll(async () => {
  await plain.close();
  await proxied.close();
});

async function verifiedUser(platform: TestPlatform) {
  const email = uniqueEmail();
  const password = strongPassword();
  await createUser(operatorDeps(platform), { email, password, name: 'Limited' });
  return { email, password };
}

/** The embedded run's mail spool: one .eml file per message under DATA_DIR/mail. */
async function spooledMail(platform: TestPlatform, to: string, subject: RegExp) {
  const dir = path.join(platform.config.dataDir, 'mail');
  return eventually(
    async () => {
      if (!fs.existsSync(dir)) return null;
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
        const mail = parseMail(fs.readFileSync(path.join(dir, file), 'utf8'));
        if (new RegExp(`^To:.*${to.replace(/[.+]/g, '\\$&')}`, 'im').test(mail.raw) && subject.test(mail.subject))
          return mail;
      }
      return null;
    },
    15_000,
    `spooled mail to ${to}`,
  );
}

async function resetPassword(platform: TestPlatform, email: string) {
  const http = httpClient(platform.url);
  expect((await http.post('/api/v1/auth/password/forgot', { body: { email } })).status).toBe(202);
  const token = tokenFromMail(await spooledMail(platform, email, /reset your password/i));
  const password = strongPassword();
  expect((await http.post('/api/v1/auth/password/reset', { body: { token, password } })).status).toBe(200);
  return password;
}

describe('without SMTP (embedded defaults)', () => {
  it('writes mails as .eml files under DATA_DIR/mail and offers no email OTP', async () => {
    const http = httpClient(plain.url);
    const email = uniqueEmail();
    await http.post('/api/v1/auth/register', { body: { email, password: strongPassword(), name: 'Spool' } });
    const mail = await spooledMail(plain, email, /confirm your email/i);
    expect(mail.text).toContain('/verify-email?token=');
    expect(plain.services.mailer.deliveryConfigured).toBe(false);

    // Email OTP needs real delivery: with only the spool, a TOTP user is offered TOTP and recovery codes.
    const user = await verifiedUser(plain);
    const session = await http.post<{ accessToken: string }>('/api/v1/auth/login', { body: user });
    const setup = await http.post<{ secret: string }>('/api/v1/auth/mfa/totp/setup', {
      token: session.body.accessToken,
    });
    const code = await totp(setup.body.secret);
    expect(
      (await http.post('/api/v1/auth/mfa/totp/enable', { token: session.body.accessToken, body: { code } })).status,
    ).toBe(200);
    const challenge = await http.post<{ mfaToken: string; methods: string[] }>('/api/v1/auth/login', { body: user });
    expect(challenge.body.methods).toEqual(['totp', 'recovery_code']);
    const send = await http.post('/api/v1/auth/mfa/email/send', { body: { mfaToken: challenge.body.mfaToken } });
    expect(send.status).toBe(400);
  });

  it('uses an unprefixed cookie without Secure on plain http (local development)', async () => {
    const { email, password } = await verifiedUser(plain);
    const res = await httpClient(plain.url).post('/api/v1/auth/login', { body: { email, password } });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('refresh_token=')) ?? '';
    expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Strict$/);
  });

  it('A-09 (back-off): failures on one account from rotating X-Forwarded-For are throttled; a reset lets the user in', async () => {
    const http = httpClient(plain.url);
    const { email } = await verifiedUser(plain);
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) {
      const res = await http.post('/api/v1/auth/login', {
        body: { email, password: `wrong guess ${i}` },
        headers: { 'X-Forwarded-For': `198.51.100.${i % 250}` },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // After 5 consecutive failures each further try waits 1 s, 2 s, 4 s...: nearly every guess is refused unchecked.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(90);
    const password = await resetPassword(plain, email);
    expect((await http.post('/api/v1/auth/login', { body: { email, password } })).status).toBe(200);
  });

  it('A-45 (no trusted proxy): rotating X-Forwarded-For does not reset a per-address limit', async () => {
    const http = httpClient(plain.url);
    const statuses: number[] = [];
    let retryAfter = '';
    for (let i = 0; i < 8; i++) {
      const res = await http.post('/api/v1/auth/password/forgot', {
        body: { email: uniqueEmail('burst') },
        headers: { 'X-Forwarded-For': `203.0.113.${i}` },
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after') ?? '';
    }
    // Earlier tests in this file spent part of this address's budget of 5: some 202s, then only 429s.
    const firstRefusal = statuses.indexOf(429);
    expect(firstRefusal).toBeGreaterThan(0);
    expect(firstRefusal).toBeLessThanOrEqual(5);
    expect(statuses.slice(0, firstRefusal).every((s) => s === 202)).toBe(true);
    expect(statuses.slice(firstRefusal).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(15 * 60);
  });

  it('limits refresh calls per address', async () => {
    const http = httpClient(plain.url);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await http.post('/api/v1/auth/refresh', { headers: { Cookie: `refresh_token=${'x'.repeat(43)}` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});

describe('behind one trusted proxy', () => {
  it('A-09 (lock): 100 consecutive failures from ever-new addresses lock the account, even for the right password, until a reset', async () => {
    const http = httpClient(proxied.url);
    const { email, password } = await verifiedUser(proxied);
    for (let i = 0; i < 100; i++) {
      const res = await http.post('/api/v1/auth/login', {
        body: { email, password: `wrong guess ${i}` },
        headers: { 'X-Forwarded-For': `10.${Math.floor(i / 250)}.${i % 250}.1` },
      });
      expect(res.status).toBe(401);
    }
    const locked = await http.post('/api/v1/auth/login', {
      body: { email, password },
      headers: { 'X-Forwarded-For': '10.200.0.1' },
    });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: expect.stringMatching(/reset your password/) });
    const next = await resetPassword(proxied, email);
    const ok = await http.post('/api/v1/auth/login', {
      body: { email, password: next },
      headers: { 'X-Forwarded-For': '10.200.0.2' },
    });
    expect(ok.status).toBe(200);
  });

  it('A-45 (trusted proxy): the client address is the one the proxy appended; spoofed entries before it change nothing', async () => {
    const http = httpClient(proxied.url);
    const { email, password } = await verifiedUser(proxied);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await http.post('/api/v1/auth/login', {
        body: { email, password },
        headers: { 'X-Forwarded-For': `192.0.2.${i}, 172.16.5.9` },
      });
      statuses.push(res.status);
      if (i === 5) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Another client behind the same proxy has its own budget.
    const other = await http.post('/api/v1/auth/login', {
      body: { email, password },
      headers: { 'X-Forwarded-For': '172.16.5.10' },
    });
    expect(other.status).toBe(200);
  });
});

describe('housekeeping', () => {
  it('sweeps finished rate windows and old back-off counters, but keeps live counters and account locks', async () => {
    const db = plain.services.db;
    const old = db.raw("now() - interval '40 days'");
    await db('rate_limit_counters').insert([
      { key: 'sweep:old', window_start: old, hits: 3 },
      { key: 'sweep:live', window_start: db.fn.now(), hits: 3 },
      // An hour into a two-hour window (invitation limits): still live, though older than the auth window.
      { key: 'sweep:long', window_start: db.raw("now() - interval '1 hour'"), hits: 3, window_seconds: 7200 },
    ]);
    await db('login_failures').insert([
      { key: 'sweep:stale', consecutive: 3, last_failure_at: old },
      { key: 'sweep:locked', consecutive: 100, last_failure_at: old },
      { key: 'sweep:recent', consecutive: 3, last_failure_at: db.fn.now() },
    ]);
    const result = await sweepStaleAuthRows(db, { lockAfter: 100 });
    expect(result.rateCounters).toBeGreaterThanOrEqual(1);
    const keys = async (table: string) =>
      ((await db(table).where('key', 'like', 'sweep:%').select('key')) as { key: string }[]).map((r) => r.key).sort();
    expect(await keys('rate_limit_counters')).toEqual(['sweep:live', 'sweep:long']);
    expect(await keys('login_failures')).toEqual(['sweep:locked', 'sweep:recent']);
  });
});
