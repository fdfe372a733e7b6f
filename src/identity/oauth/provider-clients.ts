import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { OAuthProviderConfig } from '../../config/identity';
import { safeEqual } from '../secret-tokens';

/** Who the provider says the user is. `subject` is the stable key; the email is only a contact detail (OA-3). */
export interface ExternalIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
}

export class ProviderError extends Error {}

const TIMEOUT_MS = 10_000;
const ID_TOKEN_ALGS = ['RS256', 'ES256', 'PS256'];

async function fetchJson(url: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await res.text();
  } catch {
    // Refused, reset, timed out or redirected: the provider's failure, answered like any other (not a 500).
    throw new ProviderError('provider unreachable');
  }
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(`provider answered ${res.status} with a non-JSON body`);
  }
  if (!res.ok) throw new ProviderError(`provider answered ${res.status}`);
  return body;
}

const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;

export function createProviderClients(providers: OAuthProviderConfig[]) {
  const jwks = new Map(
    providers
      .filter((p) => p.kind === 'oidc' && p.jwksUrl)
      .map((p) => [p.id, createRemoteJWKSet(new URL(p.jwksUrl ?? ''), { timeoutDuration: TIMEOUT_MS })]),
  );

  async function tokenRequest(p: OAuthProviderConfig, code: string, verifier: string, redirectUri: string) {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: p.clientId,
      client_secret: p.clientSecret,
      code_verifier: verifier,
    });
    const json = await fetchJson(p.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
    });
    if (field(json, 'error') !== undefined) throw new ProviderError('the provider refused the authorization code');
    return json;
  }

  /**
   * OIDC: the ID token is verified against the provider's published keys with a pinned algorithm list, the exact
   * issuer, our client id as audience, and the nonce of this login (OA-1, OA-2).
   */
  async function oidcIdentity(p: OAuthProviderConfig, tokens: unknown, nonce: string): Promise<ExternalIdentity> {
    const idToken = field(tokens, 'id_token');
    const keys = jwks.get(p.id);
    if (typeof idToken !== 'string' || !keys) throw new ProviderError('the provider returned no ID token');
    let payload;
    try {
      ({ payload } = await jwtVerify(idToken, keys, {
        algorithms: ID_TOKEN_ALGS,
        issuer: p.issuer,
        audience: p.clientId,
        requiredClaims: ['sub', 'iat', 'exp', 'nonce'],
      }));
    } catch {
      throw new ProviderError('the ID token did not verify');
    }
    if (typeof payload.nonce !== 'string' || !safeEqual(payload.nonce, nonce)) {
      throw new ProviderError('the ID token nonce does not match this login');
    }
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== p.clientId) {
      throw new ProviderError('the ID token was issued to another client');
    }
    const email = typeof payload.email === 'string' ? payload.email : null;
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    const name = typeof payload.name === 'string' ? payload.name : '';
    return { subject: String(payload.sub), email, emailVerified: verified, name };
  }

  /** The code-hosting provider has no ID token: the user and their verified primary email come from its API. */
  async function codeHostingIdentity(p: OAuthProviderConfig, tokens: unknown): Promise<ExternalIdentity> {
    const accessToken = field(tokens, 'access_token');
    if (typeof accessToken !== 'string') throw new ProviderError('the provider returned no access token');
    const headers = {
      Authorization: `Bearer ${accessToken}`,
      Accept: 'application/json',
      'User-Agent': 'delivery-platform',
    };
    const user = await fetchJson(`${p.apiUrl}/user`, { headers });
    const id = field(user, 'id');
    if (typeof id !== 'number' && typeof id !== 'string') throw new ProviderError('the provider returned no user id');
    const emails = await fetchJson(`${p.apiUrl}/user/emails`, { headers });
    const primary = Array.isArray(emails)
      ? (emails as unknown[]).find((e) => field(e, 'primary') === true && field(e, 'verified') === true)
      : undefined;
    const email = field(primary, 'email');
    const name = field(user, 'name') ?? field(user, 'login');
    return {
      subject: String(id),
      email: typeof email === 'string' ? email : null,
      emailVerified: typeof email === 'string',
      name: typeof name === 'string' ? name : '',
    };
  }

  return {
    authorizationUrl(
      p: OAuthProviderConfig,
      input: { state: string; codeChallenge: string; nonce: string; redirectUri: string },
    ) {
      const url = new URL(p.authorizationUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', p.clientId);
      url.searchParams.set('redirect_uri', input.redirectUri);
      url.searchParams.set('scope', p.scopes.join(' '));
      url.searchParams.set('state', input.state);
      url.searchParams.set('code_challenge', input.codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      if (p.kind === 'oidc') url.searchParams.set('nonce', input.nonce);
      return url.toString();
    },

    async identify(
      p: OAuthProviderConfig,
      input: { code: string; codeVerifier: string; nonce: string; redirectUri: string },
    ) {
      const tokens = await tokenRequest(p, input.code, input.codeVerifier, input.redirectUri);
      return p.kind === 'oidc' ? oidcIdentity(p, tokens, input.nonce) : codeHostingIdentity(p, tokens);
    },
  };
}
