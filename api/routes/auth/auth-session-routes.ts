import type { AuthActiveOrganizationRequest, AuthLoginRequest } from '../../request-types.generated';
import { Unauthorized } from '../../../src/errors';
import type { Identity } from '../../../src/identity/identity';
import { bodyOf, sessionIdOf, userIdOf } from '../../request';
import type { RouteDef } from '../../route-def';
import {
  checkCookieOrigin,
  clearRefreshCookie,
  organizationView,
  readCookie,
  requestMeta,
  requestedOrganization,
  sessionResponse,
} from './auth-http';

const TAG = 'auth';

/** Configuration, login, refresh, logout, the caller's profile, organization context and session management. */
export function authSessionRoutes(identity: Identity): RouteDef[] {
  const config = identity.config;
  return [
    {
      method: 'get',
      path: '/api/v1/auth/config',
      summary: 'Enabled OAuth providers, whether registration is open and whether MFA is available',
      tag: TAG,
      access: { kind: 'public' },
      handler: async (ctx) => {
        ctx.body = identity.publicConfig();
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/login',
      summary: 'Email and password login: a session (access token + refresh cookie) or an MFA challenge',
      tag: TAG,
      access: { kind: 'public' },
      body: 'auth-login',
      handler: async (ctx) => {
        const { email, password } = bodyOf<AuthLoginRequest>(ctx);
        const outcome = await identity.login.login(email, password, requestMeta(ctx));
        ctx.set('Cache-Control', 'no-store');
        ctx.body = outcome.kind === 'mfa' ? outcome.challenge : sessionResponse(ctx, config, outcome.session);
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/refresh',
      summary: 'Rotate the refresh cookie and get a new access token; X-Organization-ID picks the organization',
      tag: TAG,
      access: { kind: 'public' },
      handler: async (ctx) => {
        checkCookieOrigin(ctx, config);
        const token = readCookie(ctx, config.cookieName);
        try {
          if (!token) throw new Unauthorized('missing refresh token');
          const session = await identity.sessions.refresh(token, requestedOrganization(ctx), requestMeta(ctx));
          ctx.body = sessionResponse(ctx, config, session);
        } catch (err) {
          if (err instanceof Unauthorized) clearRefreshCookie(ctx, config);
          throw err;
        }
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/logout',
      summary: 'End the session of the refresh cookie (and of the bearer token, if sent) and clear the cookie',
      tag: TAG,
      access: { kind: 'public' },
      status: 204,
      handler: async (ctx) => {
        checkCookieOrigin(ctx, config);
        await identity.logout(ctx.get('Authorization'), readCookie(ctx, config.cookieName), requestMeta(ctx));
        clearRefreshCookie(ctx, config);
        ctx.status = 204;
      },
    },
    {
      method: 'get',
      path: '/api/v1/auth/me',
      summary: 'The signed-in user, the active organization, all memberships and the MFA state',
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.me.read' },
      handler: async (ctx) => {
        const me = await identity.me(userIdOf(ctx), ctx.state.principal?.organizationId ?? null);
        ctx.body = {
          ...me,
          organization: organizationView(me.organization),
          memberships: me.memberships.map(organizationView),
        };
      },
    },
    {
      method: 'put',
      path: '/api/v1/auth/active-organization',
      summary: 'Switch the active organization: a new access token with its org_id and role (403 if not a member)',
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.organization.switch' },
      body: 'auth-active-organization',
      handler: async (ctx) => {
        const { organizationId } = bodyOf<AuthActiveOrganizationRequest>(ctx);
        const sessionId = sessionIdOf(ctx);
        const result = await identity.sessions.switchOrganization(
          userIdOf(ctx),
          sessionId,
          organizationId.toLowerCase(),
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          accessToken: result.accessToken,
          tokenType: 'Bearer',
          expiresIn: result.expiresIn,
          organization: organizationView(result.organization),
        };
      },
    },
    {
      method: 'get',
      path: '/api/v1/auth/sessions',
      summary: "The caller's live sessions (one per login), the current one marked",
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.sessions.read' },
      handler: async (ctx) => {
        const sessionId = sessionIdOf(ctx);
        ctx.body = { items: await identity.sessions.list(userIdOf(ctx), sessionId) };
      },
    },
    {
      method: 'delete',
      path: '/api/v1/auth/sessions/:id',
      summary: "End one of the caller's sessions: its refresh tokens and access tokens stop working at once",
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.sessions.revoke' },
      status: 204,
      handler: async (ctx) => {
        await identity.sessions.revoke(userIdOf(ctx), String(ctx.params.id), requestMeta(ctx));
        ctx.status = 204;
      },
    },
  ];
}
