import { createHash } from 'node:crypto';
import { Conflict, Forbidden, InvalidInput, NotFound } from '../../errors';
import { addressKey } from '../../rate-limit/fixed-window-limiter';
import { insertUser } from '../../users/user-repository';
import { AUTH_ACTIONS, authEntry, type RequestMeta } from '../auth-audit';
import type { IdentityDeps } from '../identity-deps';
import type { MfaLogin, MfaRequired } from '../mfa/mfa-login';
import { mfaEnabled } from '../mfa/mfa-repository';
import { hashToken, newSecretToken, safeEqual } from '../secret-tokens';
import type { IssuedSession } from '../session-service';
import { credentialsByEmail, credentialsById } from '../../users/user-credentials';
import { consumeState, findOAuthUser, linkOAuthIdentity, saveState, touchOAuthIdentity } from './oauth-states';
import { createProviderClients, ProviderError } from './provider-clients';
import { safeReturnTo } from './redirect-policy';

export type OAuthOutcome =
  { kind: 'session'; session: IssuedSession; returnTo: string } | { kind: 'mfa'; challenge: MfaRequired };

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  iss?: string;
}

const FAILED = 'OAuth sign-in failed; start again';

export function createOAuthService(deps: IdentityDeps, publicUrl: string, mfa: MfaLogin) {
  const { db, audit, config, limiter, sessions } = deps;
  const oauth = config.oauth;
  const clients = createProviderClients(oauth.providers);
  // One redirect URI per provider, so a response can only come back to the client that asked (mix-up, OA-2).
  const redirectUri = (id: string) => `${publicUrl.replace(/\/$/, '')}/api/v1/auth/oauth/${id}/callback`;

  function provider(id: string) {
    const found = oauth.providers.find((p) => p.id === id);
    if (!found) throw new NotFound('unknown or disabled OAuth provider');
    return found;
  }

  return {
    providerIds: () => oauth.providers.map((p) => p.id),

    /** Returns where to send the browser and the value of the cookie that binds the state to this browser. */
    async start(providerId: string, returnTo: string | undefined, meta: RequestMeta) {
      const p = provider(providerId);
      await limiter.hit(
        [{ key: addressKey('oauth', meta.clientAddress), limit: config.rates.login.perAddress }],
        config.rateWindowMs,
      );
      const state = newSecretToken();
      const nonce = newSecretToken();
      const codeVerifier = newSecretToken(48);
      const browserBinding = newSecretToken();
      await saveState(db, {
        state,
        browserBinding,
        provider: p.id,
        codeVerifier,
        nonce,
        returnTo: safeReturnTo(returnTo, oauth.redirectPaths, oauth.defaultRedirect),
        ttlMs: oauth.stateTtlMs,
      });
      const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
      return {
        location: clients.authorizationUrl(p, { state, codeChallenge, nonce, redirectUri: redirectUri(p.id) }),
        browserBinding,
      };
    },

    async callback(
      providerId: string,
      query: CallbackQuery,
      browserBinding: string | undefined,
      meta: RequestMeta,
    ): Promise<OAuthOutcome> {
      const p = provider(providerId);
      await limiter.hit(
        [{ key: addressKey('oauth', meta.clientAddress), limit: config.rates.login.perAddress }],
        config.rateWindowMs,
      );
      if (query.error !== undefined) throw new InvalidInput('the provider did not authorize the sign-in');
      if (!query.code || !query.state) throw new InvalidInput('missing code or state');
      // The state is spent before anything else, so a replay never gets further than this.
      const saved = await consumeState(db, query.state, p.id);
      if (!saved || !browserBinding || !safeEqual(hashToken(browserBinding), saved.browserHash)) {
        throw new InvalidInput('invalid or expired OAuth state');
      }
      if (p.kind === 'oidc' && query.iss !== undefined && query.iss !== p.issuer) {
        throw new InvalidInput('the authorization response came from another issuer');
      }
      let external;
      try {
        external = await clients.identify(p, {
          code: query.code,
          codeVerifier: saved.codeVerifier,
          nonce: saved.nonce,
          redirectUri: redirectUri(p.id),
        });
      } catch (err) {
        if (err instanceof ProviderError) {
          await audit.appendStandalone(
            authEntry({
              action: AUTH_ACTIONS.oauthLogin,
              meta,
              userId: null,
              actor: `${p.id}:unknown`,
              status: 'failure',
              details: { provider: p.id, reason: err.message },
            }),
          );
          throw new InvalidInput(FAILED);
        }
        throw err;
      }
      const userId = await resolveUser(p.id, external, meta);
      const user = await credentialsById(db, userId);
      if (!user || user.disabled) throw new Forbidden('this account is disabled');
      const authMethod = `oauth:${p.id}`;
      if (await mfaEnabled(db, user.id)) {
        return { kind: 'mfa', challenge: await mfa.challenge(user, authMethod, saved.returnTo) };
      }
      const session = await sessions.signIn(user, [authMethod], meta);
      return { kind: 'session', session, returnTo: saved.returnTo };
    },
  };

  /**
   * Users are keyed by (provider, subject). A new subject becomes a new account, and never takes over an existing
   * one because the email matches: provider emails can be unverified or mutable (OA-3).
   */
  async function resolveUser(
    providerId: string,
    external: { subject: string; email: string | null; emailVerified: boolean; name: string },
    meta: RequestMeta,
  ): Promise<string> {
    const known = await findOAuthUser(db, providerId, external.subject);
    if (known) {
      await touchOAuthIdentity(db, providerId, external.subject, external.email ?? '');
      return known;
    }
    if (!config.registrationOpen) throw new Forbidden('registration is closed on this deployment');
    if (!external.email || !external.emailVerified) {
      throw new InvalidInput('the provider did not confirm an email address for this account');
    }
    const email = external.email;
    if (await credentialsByEmail(db, email)) {
      throw new Conflict(
        'an account with this email address already exists; sign in with its password (accounts are not linked by email)',
      );
    }
    return db.transaction(async (trx) => {
      const user = await insertUser(trx, { email, name: external.name, passwordHash: null, verified: true });
      await linkOAuthIdentity(trx, { userId: user.id, provider: providerId, subject: external.subject, email });
      await audit.append(
        trx,
        authEntry({
          action: AUTH_ACTIONS.register,
          meta,
          userId: user.id,
          actor: user.email,
          details: { method: `oauth:${providerId}`, subject: external.subject },
        }),
      );
      return user.id;
    });
  }
}

export type OAuthService = ReturnType<typeof createOAuthService>;
