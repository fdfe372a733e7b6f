import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';

/** The account the fake provider "logs in" at its authorize endpoint. */
export interface ProviderUser {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
}

interface PendingCode {
  user: ProviderUser;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | undefined;
  used: boolean;
}

export interface AuthorizeRequest {
  params: URLSearchParams;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * A real local OAuth 2.0 provider over HTTP: either OpenID Connect (authorize, token with a signed ID token, JWKS)
 * or a code-hosting provider (authorize, token, /user, /user/emails). It enforces what real providers enforce
 * (client credentials, single-use codes, exact redirect URI, PKCE S256), so the platform's client is tested against
 * the protocol, and it records what it received so tests can assert on state, nonce and scopes.
 */
export async function startOAuthProvider(kind: 'oidc' | 'code-hosting', clientId = 'platform-client') {
  const clientSecret = randomBytes(16).toString('hex');
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const kid = randomBytes(6).toString('hex');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, ProviderUser>();
  const authorizeRequests: AuthorizeRequest[] = [];

  const provider = {
    issuer: '',
    clientId,
    clientSecret,
    /** Who signs in next at the authorize endpoint. */
    user: { subject: 'sub-1', email: 'user@example.test', emailVerified: true, name: 'Provider User' } as ProviderUser,
    /** Claims merged into the next ID tokens (wrong aud, iss, nonce...). */
    idTokenOverrides: {} as JWTPayload,
    /** Sign ID tokens with a key the JWKS does not publish. */
    signWithForeignKey: false,
    /** Drop the connection at the token endpoint without an answer (provider outage, network failure). */
    tokenEndpointDown: false,
    authorizeRequests,
    tokenRequests: 0,
    env: {} as Record<string, string>,
    close: async () => undefined as void,
  };

  async function idToken(pending: PendingCode): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims: JWTPayload = {
      iss: provider.issuer,
      aud: pending.clientId,
      sub: pending.user.subject,
      nonce: pending.nonce,
      email: pending.user.email ?? undefined,
      email_verified: pending.user.emailVerified,
      name: pending.user.name,
      iat: now,
      exp: now + 300,
      ...provider.idTokenOverrides,
    };
    const key: CryptoKey = provider.signWithForeignKey ? foreign.privateKey : privateKey;
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
  }

  async function token(req: http.IncomingMessage, res: http.ServerResponse) {
    provider.tokenRequests++;
    if (provider.tokenEndpointDown) return void req.socket.destroy();
    const form = await readForm(req);
    const pending = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
      return json(res, 401, { error: 'invalid_client' });
    }
    if (
      !pending ||
      pending.used ||
      pending.redirectUri !== form.get('redirect_uri') ||
      challenge !== pending.codeChallenge
    ) {
      return json(res, 400, { error: 'invalid_grant' });
    }
    pending.used = true;
    const access = randomBytes(16).toString('hex');
    accessTokens.set(access, pending.user);
    const body: Record<string, unknown> = { access_token: access, token_type: 'bearer', expires_in: 300 };
    if (kind === 'oidc') body.id_token = await idToken(pending);
    return json(res, 200, body);
  }

  function authorize(url: URL, res: http.ServerResponse) {
    const p = url.searchParams;
    authorizeRequests.push({ params: new URLSearchParams(p) });
    const redirectUri = p.get('redirect_uri') ?? '';
    if (p.get('client_id') !== clientId || p.get('response_type') !== 'code' || !redirectUri) {
      return json(res, 400, { error: 'invalid_request' });
    }
    if (p.get('code_challenge_method') !== 'S256' || !p.get('code_challenge')) {
      return json(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
    }
    const code = randomBytes(16).toString('hex');
    codes.set(code, {
      user: { ...provider.user },
      clientId,
      redirectUri,
      codeChallenge: p.get('code_challenge') ?? '',
      nonce: p.get('nonce') ?? undefined,
      used: false,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', p.get('state') ?? '');
    res.writeHead(302, { Location: back.toString() });
    res.end();
  }

  function api(url: URL, req: http.IncomingMessage, res: http.ServerResponse) {
    const user = accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!user) return json(res, 401, { message: 'Bad credentials' });
    if (url.pathname === '/api/user') {
      return json(res, 200, { id: Number(user.subject.replace(/\D/g, '') || '1'), login: user.name, name: user.name });
    }
    return json(res, 200, user.email ? [{ email: user.email, primary: true, verified: user.emailVerified }] : []);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', provider.issuer);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /authorize') return authorize(url, res);
    if (route === 'POST /token') return void token(req, res);
    if (route === 'GET /jwks') return json(res, 200, { keys: [jwk] });
    if (route === 'GET /api/user' || route === 'GET /api/user/emails') return api(url, req, res);
    return json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider.issuer = base;
  provider.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return provider;
}

export type FakeOAuthProvider = Awaited<ReturnType<typeof startOAuthProvider>>;

/** Platform settings that enable a fake provider under one of the three provider ids. */
export function providerEnv(id: 'google' | 'microsoft' | 'github', p: FakeOAuthProvider): Record<string, string> {
  const prefix = `OAUTH_${id.toUpperCase()}_`;
  const common = {
    [`${prefix}CLIENT_ID`]: p.clientId,
    [`${prefix}CLIENT_SECRET`]: p.clientSecret,
    [`${prefix}AUTHORIZATION_URL`]: `${p.issuer}/authorize`,
    [`${prefix}TOKEN_URL`]: `${p.issuer}/token`,
  };
  if (id === 'github') return { ...common, OAUTH_GITHUB_API_URL: `${p.issuer}/api` };
  return { ...common, [`${prefix}ISSUER`]: p.issuer, [`${prefix}JWKS_URL`]: `${p.issuer}/jwks` };
}
