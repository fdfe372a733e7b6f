import type { Identity } from '../../../src/identity/identity';
import type { CallbackQuery } from '../../../src/identity/oauth/oauth-service';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import {
  clearOAuthBinding,
  oauthBindingCookie,
  readCookie,
  requestMeta,
  setOAuthBinding,
  setRefreshCookie,
} from './auth-http';

const TAG = 'auth';

function queryString(ctx: AppContext, name: string): string | undefined {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : undefined;
}

/** Browser-facing OAuth: redirect to the provider, and the callback that signs in or hands over to MFA. */
export function authOAuthRoutes(identity: Identity): RouteDef[] {
  const config = identity.config;
  return [
    {
      method: 'get',
      path: '/api/v1/auth/oauth/:provider/start',
      summary: 'Redirect to the provider (state, PKCE S256, nonce); returnTo must be an allowed relative path',
      tag: TAG,
      access: { kind: 'public' },
      query: 'auth-oauth-start-query',
      status: 302,
      handler: async (ctx) => {
        const { location, browserBinding } = await identity.oauth.start(
          String(ctx.params.provider),
          queryString(ctx, 'returnTo'),
          requestMeta(ctx),
        );
        setOAuthBinding(ctx, config, browserBinding, Math.ceil(config.oauth.stateTtlMs / 1000));
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(location);
      },
    },
    {
      method: 'get',
      path: '/api/v1/auth/oauth/:provider/callback',
      summary: 'Provider redirect target: sets the refresh cookie and redirects to returnTo, or to the MFA page',
      tag: TAG,
      access: { kind: 'public' },
      status: 302,
      handler: async (ctx) => {
        const query: CallbackQuery = {
          code: queryString(ctx, 'code'),
          state: queryString(ctx, 'state'),
          error: queryString(ctx, 'error'),
          iss: queryString(ctx, 'iss'),
        };
        const binding = readCookie(ctx, oauthBindingCookie(config));
        // The binding is single-use like the state: gone whatever the outcome.
        clearOAuthBinding(ctx, config);
        const outcome = await identity.oauth.callback(String(ctx.params.provider), query, binding, requestMeta(ctx));
        ctx.set('Cache-Control', 'no-store');
        if (outcome.kind === 'mfa') {
          // In the fragment, the challenge token never reaches a server log or a Referer header.
          const { mfaToken, methods } = outcome.challenge;
          ctx.redirect(`${config.oauth.mfaPage}#mfaToken=${mfaToken}&methods=${methods.join(',')}`);
          return;
        }
        setRefreshCookie(ctx, config, outcome.session.refreshToken, outcome.session.refreshMaxAgeSeconds);
        ctx.redirect(outcome.returnTo);
      },
    },
  ];
}
