import { createHmac, randomBytes } from 'node:crypto';
import { httpClient, type HttpResponse } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startSmtpCapture, tokenFromMail, type SmtpCapture } from '../../helpers/smtp-capture';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/** HTTPS public URL: the refresh cookie is `__Host-` prefixed and Secure, as in production. */
export const PUBLIC_URL = 'https://app.example.test';
export const COOKIE = '__Host-refresh_token';
export const SAME_ORIGIN = { Origin: PUBLIC_URL };

export interface IdentityEnv {
  platform: TestPlatform;
  http: ReturnType<typeof httpClient>;
  smtp: SmtpCapture;
  close(): Promise<void>;
}

/** The real platform with a real SMTP listener behind SMTP_URL. */
export async function startIdentityPlatform(env: Record<string, string> = {}): Promise<IdentityEnv> {
  const smtp = await startSmtpCapture();
  const platform = await startTestPlatform({
    worker: false,
    env: { PUBLIC_URL, SMTP_URL: smtp.url, MAIL_FROM: 'Platform <no-reply@example.test>', ...env },
  });
  return {
    platform,
    http: httpClient(platform.url),
    smtp,
    async close() {
      await platform.close();
      await smtp.close();
    },
  };
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.test`;
}

export function strongPassword(): string {
  return `correct horse ${randomBytes(6).toString('hex')}`;
}

/** The refresh token value from a response's Set-Cookie, or undefined. */
export function refreshFrom(res: HttpResponse<unknown>): string | undefined {
  for (const cookie of res.headers.getSetCookie()) {
    const match = new RegExp(`^${COOKIE}=([^;]*)`).exec(cookie);
    if (match) return match[1] === '' ? undefined : match[1];
  }
  return undefined;
}

export function cookieHeader(refresh: string): Record<string, string> {
  return { Cookie: `${COOKIE}=${refresh}`, ...SAME_ORIGIN };
}

export interface SignedIn {
  email: string;
  password: string;
  userId: string;
  accessToken: string;
  refresh: string;
}

/** Register over HTTP, verify with the token of the mail the SMTP listener got. */
export async function registerVerified(env: IdentityEnv, email = uniqueEmail(), password = strongPassword()) {
  const reg = await env.http.post('/api/v1/auth/register', { body: { email, password, name: 'Test' } });
  if (reg.status !== 202) throw new Error(`register: ${reg.status} ${reg.text}`);
  const mail = await env.smtp.waitFor(email, /confirm your email/i);
  const verified = await env.http.post('/api/v1/auth/verify-email', { body: { token: tokenFromMail(mail) } });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${verified.text}`);
  return { email, password };
}

export async function login(env: IdentityEnv, email: string, password: string, headers: Record<string, string> = {}) {
  return env.http.post<Record<string, unknown>>('/api/v1/auth/login', { body: { email, password }, headers });
}

/** A verified user signed in with a password (no MFA). */
export async function signedInUser(env: IdentityEnv, email?: string): Promise<SignedIn> {
  const creds = await registerVerified(env, email);
  const res = await login(env, creds.email, creds.password);
  const refresh = refreshFrom(res);
  if (res.status !== 200 || !refresh) throw new Error(`login: ${res.status} ${res.text}`);
  const body = res.body as { accessToken: string; user: { id: string } };
  return { ...creds, userId: body.user.id, accessToken: body.accessToken, refresh };
}

export function refreshWith(env: IdentityEnv, refresh: string, headers: Record<string, string> = {}) {
  return env.http.post<Record<string, unknown>>('/api/v1/auth/refresh', {
    headers: { ...cookieHeader(refresh), ...headers },
  });
}

function base32Decode(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
}

/**
 * RFC 6238 written out independently of the platform's otplib-based code, so the tests would catch a platform that
 * computed codes wrongly: HMAC-SHA1 over the 8-byte step counter, dynamic truncation, 6 digits.
 */
export function totpAt(secret: string | Buffer, step: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const key = typeof secret === 'string' ? base32Decode(secret) : secret;
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, '0');
}

/** The TOTP code of `secret` for the current step plus `offset` steps. */
export async function totp(secret: string, offset = 0): Promise<string> {
  return totpAt(secret, Math.floor(Date.now() / 30_000) + offset);
}

/**
 * A code for a step that has not been used yet: the platform accepts each step once, so a test that needs two
 * successive TOTP logins uses the previous step first and the current one next.
 */
export async function enableTotp(env: IdentityEnv, accessToken: string) {
  const setup = await env.http.post<{ secret: string; otpauthUri: string; qrCode: string }>(
    '/api/v1/auth/mfa/totp/setup',
    { token: accessToken },
  );
  if (setup.status !== 200) throw new Error(`setup: ${setup.status} ${setup.text}`);
  const enabled = await env.http.post<{ recoveryCodes: string[] }>('/api/v1/auth/mfa/totp/enable', {
    token: accessToken,
    body: { code: await totp(setup.body.secret, -1) },
  });
  if (enabled.status !== 200) throw new Error(`enable: ${enabled.status} ${enabled.text}`);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes, setup: setup.body };
}

/** Audit entries of the authentication category for a user, oldest first (read straight from the table). */
export async function authAudit(env: IdentityEnv, where: Record<string, unknown>) {
  return (await env.platform.services
    .db('audit_log')
    .where({ category: 'authentication', ...where })
    .orderBy('seq', 'asc')
    .select('action', 'status', 'user_id', 'actor', 'organization_id', 'details')) as {
    action: string;
    status: string;
    user_id: string | null;
    actor: string;
    organization_id: string | null;
    details: Record<string, unknown>;
  }[];
}

/** Waits (polling, no fixed sleep) until the current 30 s TOTP step has at least 3 s left, so test and server agree. */
export async function awayFromStepEdge(): Promise<void> {
  await eventually(async () => Date.now() % 30_000 < 27_000, 35_000, 'a TOTP step with time left');
}
