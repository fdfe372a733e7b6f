import { loadMailConfig, type MailConfig } from './mail';
import { ConfigError, type Env, readBool, readDurationMs, readInt, readOptional, readString, readUrl } from './parse';

export type OAuthProviderKind = 'oidc' | 'code-hosting';

export interface OAuthProviderConfig {
  /** Identifier in paths and in GET /auth/config: `google`, `microsoft`, `github`. */
  id: string;
  kind: OAuthProviderKind;
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  scopes: string[];
  /** OIDC: exact `iss` expected in the ID token, and where its signing keys are published. */
  issuer?: string;
  jwksUrl?: string;
  /** Code-hosting provider: REST API base (user and emails endpoints). */
  apiUrl?: string;
}

export interface RateRule {
  perAddress: number;
  perAccount: number;
}

export interface IdentityConfig {
  mail: MailConfig;
  registrationOpen: boolean;
  /** Idle timeout of a refresh family: a refresh token unused this long is dead. */
  sessionIdleMs: number;
  /**
   * AUTH_STANDING_CACHE_TTL (default 5s, at most 60s; AUTH_STANDING_CACHE=false: 0, no cache): how long an API process
   * keeps a user's standing (session live, membership role), invalidated at once on change (src/iam/standing-cache.ts).
   */
  standingCacheTtlMs: number;
  /** Absolute lifetime of a refresh family from login, whatever the activity (the "session duration" setting). */
  sessionMaxMs: number;
  /** `__Host-` prefixed Secure cookie when PUBLIC_URL is https; a plain cookie for local http. */
  cookieName: string;
  cookieSecure: boolean;
  /** Origins accepted on cookie-authenticated calls (refresh, logout): PUBLIC_URL's plus AUTH_ALLOWED_ORIGINS. */
  allowedOrigins: string[];
  /** Base64 32-byte key for TOTP secrets and OTP HMACs; undefined means one generated under DATA_DIR. */
  mfaKey: string | undefined;
  emailVerificationTtlMs: number;
  passwordResetTtlMs: number;
  emailOtpTtlMs: number;
  /** Email OTP as a second factor; offered only when SMTP delivery is configured as well. */
  emailOtpEnabled: boolean;
  /** Extra common/breached passwords to refuse, one per line, on top of the shipped list. */
  passwordBlocklistFile: string | undefined;
  mfaChallengeTtlMs: number;
  mfaMaxAttemptsPerChallenge: number;
  /** Consecutive failed logins after which each further try waits exponentially longer; at the hard cap the
   * account is locked until a password reset. */
  loginDelayAfter: number;
  loginLockAfter: number;
  rateWindowMs: number;
  rates: { login: RateRule; mfa: RateRule; refresh: RateRule; reset: RateRule; register: RateRule };
  oauth: {
    providers: OAuthProviderConfig[];
    stateTtlMs: number;
    /** Relative paths (exact or prefix ending in `/`) a post-login redirect may go to. */
    redirectPaths: string[];
    defaultRedirect: string;
    /** Browser page that completes an MFA challenge after an OAuth login (gets `#mfaToken=...`). */
    mfaPage: string;
  };
}

function rateRule(env: Env, name: string, perAddress: number, perAccount: number): RateRule {
  return {
    perAddress: readInt(env, `AUTH_RATE_${name}_PER_ADDRESS`, perAddress, 1, 1_000_000),
    perAccount: readInt(env, `AUTH_RATE_${name}_PER_ACCOUNT`, perAccount, 1, 1_000_000),
  };
}

function relativePath(env: Env, name: string, fallback: string): string {
  const value = readString(env, name, fallback);
  if (!/^\/(?![/\\])[^\s\\]*$/.test(value)) throw new ConfigError(`${name} must be a relative path starting with /`);
  return value;
}

function oidcProvider(env: Env, id: string, defaults: Partial<Record<string, string>>): OAuthProviderConfig | null {
  const p = `OAUTH_${id.toUpperCase()}_`;
  const clientId = readOptional(env, `${p}CLIENT_ID`);
  if (clientId === undefined) return null;
  const need = (key: string, value: string | undefined): string => {
    if (!value) throw new ConfigError(`${p}${key} is required when ${p}CLIENT_ID is set`);
    return value;
  };
  const url = (key: string) => need(key, readUrl(env, p + key, ['https:', 'http:']) ?? defaults[key]);
  return {
    id,
    kind: 'oidc',
    clientId,
    clientSecret: need('CLIENT_SECRET', readOptional(env, `${p}CLIENT_SECRET`)),
    issuer: need('ISSUER', readOptional(env, `${p}ISSUER`) ?? defaults.ISSUER),
    authorizationUrl: url('AUTHORIZATION_URL'),
    tokenUrl: url('TOKEN_URL'),
    jwksUrl: url('JWKS_URL'),
    scopes: ['openid', 'email', 'profile'],
  };
}

function codeHostingProvider(env: Env): OAuthProviderConfig | null {
  const clientId = readOptional(env, 'OAUTH_GITHUB_CLIENT_ID');
  if (clientId === undefined) return null;
  const clientSecret = readOptional(env, 'OAUTH_GITHUB_CLIENT_SECRET');
  if (!clientSecret) throw new ConfigError('OAUTH_GITHUB_CLIENT_SECRET is required when OAUTH_GITHUB_CLIENT_ID is set');
  const url = (key: string, fallback: string) => readUrl(env, `OAUTH_GITHUB_${key}`, ['https:', 'http:']) ?? fallback;
  return {
    id: 'github',
    kind: 'code-hosting',
    clientId,
    clientSecret,
    authorizationUrl: url('AUTHORIZATION_URL', 'https://github.com/login/oauth/authorize'),
    tokenUrl: url('TOKEN_URL', 'https://github.com/login/oauth/access_token'),
    apiUrl: url('API_URL', 'https://api.github.com').replace(/\/$/, ''),
    scopes: ['user:email', 'read:org'],
  };
}

function oauthProviders(env: Env): OAuthProviderConfig[] {
  // A multi-tenant Microsoft app has no single issuer, so the endpoints default only from a tenant id
  // (OAUTH_MICROSOFT_TENANT); the ID token's `iss` must then match that tenant exactly.
  const tenant = readOptional(env, 'OAUTH_MICROSOFT_TENANT');
  const ms = tenant === undefined ? undefined : `https://login.microsoftonline.com/${encodeURIComponent(tenant)}`;
  const providers = [
    oidcProvider(env, 'google', {
      ISSUER: 'https://accounts.google.com',
      AUTHORIZATION_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
      TOKEN_URL: 'https://oauth2.googleapis.com/token',
      JWKS_URL: 'https://www.googleapis.com/oauth2/v3/certs',
    }),
    oidcProvider(
      env,
      'microsoft',
      ms === undefined
        ? {}
        : {
            ISSUER: `${ms}/v2.0`,
            AUTHORIZATION_URL: `${ms}/oauth2/v2.0/authorize`,
            TOKEN_URL: `${ms}/oauth2/v2.0/token`,
            JWKS_URL: `${ms}/discovery/v2.0/keys`,
          },
    ),
    codeHostingProvider(env),
  ];
  return providers.filter((p): p is OAuthProviderConfig => p !== null);
}

export function loadIdentityConfig(env: Env, publicUrl: string, dataDir: string): IdentityConfig {
  const https = new URL(publicUrl).protocol === 'https:';
  const extraOrigins = (readOptional(env, 'AUTH_ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of extraOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw new ConfigError(`AUTH_ALLOWED_ORIGINS: "${origin}" is not an origin`);
  }
  const mfaKey = readOptional(env, 'MFA_ENCRYPTION_KEY');
  if (mfaKey !== undefined && Buffer.from(mfaKey, 'base64').length !== 32) {
    throw new ConfigError('MFA_ENCRYPTION_KEY must be 32 bytes, base64 encoded');
  }
  const sessionIdleMs = readDurationMs(env, 'SESSION_IDLE_TIMEOUT', 7 * 86_400_000);
  const sessionMaxMs = readDurationMs(env, 'SESSION_DURATION', 30 * 86_400_000);
  const emailOtpTtlMs = readDurationMs(env, 'EMAIL_OTP_TTL', 10 * 60_000);
  if (emailOtpTtlMs > 10 * 60_000) throw new ConfigError('EMAIL_OTP_TTL must be at most 10m');
  const redirectPaths = (readOptional(env, 'AUTH_REDIRECT_PATHS') ?? '/')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of redirectPaths) {
    if (!/^\/(?![/\\])[^\s\\]*$/.test(p)) throw new ConfigError(`AUTH_REDIRECT_PATHS: "${p}" is not a relative path`);
  }
  const loginDelayAfter = readInt(env, 'LOGIN_DELAY_AFTER_FAILURES', 5, 1, 100);
  return {
    mail: loadMailConfig(env, dataDir),
    registrationOpen: readBool(env, 'REGISTRATION_OPEN', true),
    sessionIdleMs: Math.min(sessionIdleMs, sessionMaxMs),
    standingCacheTtlMs: readBool(env, 'AUTH_STANDING_CACHE', true) ? standingCacheTtlMs(env) : 0,
    sessionMaxMs,
    cookieName: https ? '__Host-refresh_token' : 'refresh_token',
    cookieSecure: https,
    allowedOrigins: [new URL(publicUrl).origin, ...extraOrigins],
    mfaKey,
    emailVerificationTtlMs: readDurationMs(env, 'EMAIL_VERIFICATION_TTL', 24 * 3_600_000),
    passwordResetTtlMs: readDurationMs(env, 'PASSWORD_RESET_TTL', 30 * 60_000),
    emailOtpTtlMs,
    emailOtpEnabled: readBool(env, 'EMAIL_OTP_ENABLED', true),
    passwordBlocklistFile: readOptional(env, 'PASSWORD_BLOCKLIST_FILE'),
    mfaChallengeTtlMs: readDurationMs(env, 'MFA_CHALLENGE_TTL', 10 * 60_000),
    mfaMaxAttemptsPerChallenge: readInt(env, 'MFA_MAX_ATTEMPTS_PER_CHALLENGE', 5, 1, 20),
    loginDelayAfter,
    loginLockAfter: readInt(env, 'LOGIN_LOCK_AFTER_FAILURES', 100, loginDelayAfter, 1000),
    rateWindowMs: readDurationMs(env, 'AUTH_RATE_WINDOW', 15 * 60_000),
    rates: {
      login: rateRule(env, 'LOGIN', 100, 30),
      mfa: rateRule(env, 'MFA', 100, 20),
      refresh: rateRule(env, 'REFRESH', 600, 300),
      reset: rateRule(env, 'RESET', 30, 5),
      register: rateRule(env, 'REGISTER', 30, 5),
    },
    oauth: {
      providers: oauthProviders(env),
      stateTtlMs: readDurationMs(env, 'OAUTH_STATE_TTL', 10 * 60_000),
      redirectPaths,
      defaultRedirect: relativePath(env, 'AUTH_DEFAULT_REDIRECT', '/'),
      mfaPage: relativePath(env, 'AUTH_MFA_PAGE', '/login/mfa'),
    },
  };
}

function standingCacheTtlMs(env: Env): number {
  const ttl = readDurationMs(env, 'AUTH_STANDING_CACHE_TTL', 5000);
  if (ttl > 60_000) throw new ConfigError('AUTH_STANDING_CACHE_TTL must be at most 60s');
  return ttl;
}
