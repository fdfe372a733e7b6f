import type { IdentityConfig } from '../../../src/config/identity';
import { Forbidden, InvalidInput } from '../../../src/errors';
import { isUuid } from '../../../src/db/uuid';
import type { RequestMeta } from '../../../src/identity/auth-audit';
import type { MembershipView } from '../../../src/orgs/membership-lookup';
import type { IssuedSession } from '../../../src/identity/session-service';
import type { AppContext } from '../../context';

/** HTTP details of the auth routes: request metadata, the refresh cookie, the CSRF origin check. */

export function requestMeta(ctx: AppContext): RequestMeta {
  return {
    requestId: ctx.state.requestId,
    // Koa honours X-Forwarded-For only with app.proxy and maxIpsCount (TRUSTED_PROXY_COUNT), so this cannot be
    // spoofed to dodge per-address limits (RL-2).
    clientAddress: ctx.ip,
    userAgent: ctx.get('User-Agent').slice(0, 512),
  };
}

export function organizationView(org: MembershipView | null) {
  return org ? { id: org.organizationId, slug: org.slug, name: org.name, role: org.role } : null;
}

/** The login answer of the issue: the refresh token goes only into Set-Cookie, never into JSON (CK-2). */
export function sessionResponse(ctx: AppContext, config: IdentityConfig, session: IssuedSession) {
  setRefreshCookie(ctx, config, session.refreshToken, session.refreshMaxAgeSeconds);
  ctx.set('Cache-Control', 'no-store');
  return {
    accessToken: session.accessToken,
    tokenType: 'Bearer' as const,
    expiresIn: session.expiresIn,
    user: session.user,
    organization: organizationView(session.organization),
  };
}

function cookieAttributes(config: IdentityConfig, sameSite: 'Strict' | 'Lax'): string {
  // `__Host-` needs Secure, Path=/ and no Domain; plain-http local runs get the same cookie without Secure,
  // which browsers would otherwise drop (documented in docs/auth.md).
  return `Path=/; HttpOnly; SameSite=${sameSite}${config.cookieSecure ? '; Secure' : ''}`;
}

export function setRefreshCookie(ctx: AppContext, config: IdentityConfig, token: string, maxAgeSeconds: number) {
  ctx.append(
    'Set-Cookie',
    `${config.cookieName}=${token}; Max-Age=${maxAgeSeconds}; ${cookieAttributes(config, 'Strict')}`,
  );
}

export function clearRefreshCookie(ctx: AppContext, config: IdentityConfig) {
  ctx.append('Set-Cookie', `${config.cookieName}=; Max-Age=0; ${cookieAttributes(config, 'Strict')}`);
}

export function readCookie(ctx: AppContext, name: string): string | undefined {
  const header = ctx.get('Cookie');
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{16,256}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * OAuth's browser binding must survive the top-level redirect back from the provider, which SameSite=Strict would
 * withhold, so it is Lax; it is useless without the matching single-use state.
 */
export function oauthBindingCookie(config: IdentityConfig): string {
  return config.cookieSecure ? '__Host-oauth_binding' : 'oauth_binding';
}

export function setOAuthBinding(ctx: AppContext, config: IdentityConfig, value: string, maxAgeSeconds: number) {
  ctx.append(
    'Set-Cookie',
    `${oauthBindingCookie(config)}=${value}; Max-Age=${maxAgeSeconds}; ${cookieAttributes(config, 'Lax')}`,
  );
}

export function clearOAuthBinding(ctx: AppContext, config: IdentityConfig) {
  ctx.append('Set-Cookie', `${oauthBindingCookie(config)}=; Max-Age=0; ${cookieAttributes(config, 'Lax')}`);
}

/**
 * Refresh and logout authenticate with a cookie, so a cross-site page could trigger them: a browser always sends
 * Origin on such POSTs, and it must be one of ours. Clients that send no Origin (curl, SDKs) are not browsers and
 * carry no ambient cookie, so they pass (CK-2).
 */
export function checkCookieOrigin(ctx: AppContext, config: IdentityConfig): void {
  const origin = ctx.get('Origin');
  if (origin !== '' && !config.allowedOrigins.includes(origin)) throw new Forbidden('cross-origin request refused');
  if (ctx.get('Sec-Fetch-Site') === 'cross-site') throw new Forbidden('cross-origin request refused');
}

/** X-Organization-ID: read on refresh only; every other route ignores it (the spec's rule 7). */
export function requestedOrganization(ctx: AppContext): string | undefined {
  const value = ctx.get('X-Organization-ID').trim();
  if (value === '') return undefined;
  if (!isUuid(value)) throw new InvalidInput('X-Organization-ID must be an organization id');
  return value.toLowerCase();
}
