import { providerEnv, startOAuthProvider, type FakeOAuthProvider } from '../../helpers/oauth-providers';
import {
  PUBLIC_URL,
  authAudit,
  enableTotp,
  refreshFrom,
  refreshWith,
  registerVerified,
  startIdentityPlatform,
  totp,
  uniqueEmail,
  type IdentityEnv,
} from './identity-harness';

type ProviderId = 'google' | 'microsoft' | 'github';

let env: IdentityEnv;
const providers = {} as Record<ProviderId, FakeOAuthProvider>;
let nextSubject = 1000;

beforeAll(async () => {
  providers.google = await startOAuthProvider('oidc', 'google-client');
  providers.microsoft = await startOAuthProvider('oidc', 'microsoft-client');
  providers.github = await startOAuthProvider('code-hosting', 'github-client');
  env = await startIdentityPlatform({
    ...providerEnv('google', providers.google),
    ...providerEnv('microsoft', providers.microsoft),
    ...providerEnv('github', providers.github),
    AUTH_REDIRECT_PATHS: '/app/,/settings',
    AUTH_DEFAULT_REDIRECT: '/app/home',
  });
});
afterAll(async () => {
  await env.close();
  await Promise.all(Object.values(providers).map((p) => p.close()));
});

const BINDING = '__Host-oauth_binding';

function bindingFrom(headers: Headers): string {
  const cookie = headers.getSetCookie().find((c) => c.startsWith(`${BINDING}=`)) ?? '';
  return /^[^=]+=([^;]*)/.exec(cookie)?.[1] ?? '';
}

/** Start at the platform, follow the redirect to the provider (a real HTTP request), come back with its code. */
async function authorize(id: ProviderId, returnTo?: string) {
  const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
  const start = await env.http.get(`/api/v1/auth/oauth/${id}/start${query}`);
  expect(start.status).toBe(302);
  const location = new URL(start.headers.get('location') ?? '');
  const atProvider = await fetch(location, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get('location') ?? '');
  expect(callback.origin).toBe(PUBLIC_URL);
  return { start, authorizeParams: location.searchParams, callback, binding: bindingFrom(start.headers) };
}

function callback(url: URL, binding: string | undefined) {
  return env.http.get(`${url.pathname}${url.search}`, {
    headers: binding === undefined ? {} : { Cookie: `${BINDING}=${binding}` },
  });
}

async function signIn(id: ProviderId, returnTo?: string) {
  const flow = await authorize(id, returnTo);
  const res = await callback(flow.callback, flow.binding);
  return { ...flow, res };
}

function asUser(id: ProviderId, email: string | null, emailVerified = true) {
  const subject = `sub-${nextSubject++}`;
  providers[id].user = { subject, email, emailVerified, name: `${id} user` };
  return subject;
}

async function familyCount(): Promise<number> {
  const rows = await env.platform.services.db('session_families').count<{ n: string }[]>('* as n');
  return Number(rows[0]?.n);
}

describe('provider discovery and authorization requests', () => {
  it('lists the three enabled providers in GET /auth/config', async () => {
    const res = await env.http.get('/api/v1/auth/config');
    expect(res.body).toEqual({
      registrationOpen: true,
      providers: ['google', 'microsoft', 'github'],
      mfaAvailable: true,
    });
  });

  it('sends state, PKCE S256 and nonce, with the scopes of each provider and a per-provider redirect URI', async () => {
    for (const id of ['google', 'microsoft', 'github'] as const) {
      asUser(id, uniqueEmail(id));
      const { authorizeParams: p, start } = await authorize(id);
      expect(p.get('response_type')).toBe('code');
      expect(p.get('client_id')).toBe(providers[id].clientId);
      expect(p.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/v1/auth/oauth/${id}/callback`);
      expect(p.get('code_challenge_method')).toBe('S256');
      expect(p.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(p.get('state')?.length).toBeGreaterThanOrEqual(43);
      expect(p.get('scope')).toBe(id === 'github' ? 'user:email read:org' : 'openid email profile');
      expect(p.get('nonce')?.length ?? 0).toBe(id === 'github' ? 0 : 43);
      const cookie = start.headers.getSetCookie().find((c) => c.startsWith(`${BINDING}=`)) ?? '';
      expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    }
  });

  it('answers 404 for a provider that is not enabled', async () => {
    expect((await env.http.get('/api/v1/auth/oauth/gitlab/start')).status).toBe(404);
  });
});

describe('sign-in with each provider', () => {
  it.each(['google', 'microsoft', 'github'] as const)(
    '%s: creates the user on first sign-in, sets the refresh cookie, and finds the same user by subject later',
    async (id) => {
      const email = uniqueEmail(id);
      const subject = asUser(id, email);
      const { res } = await signIn(id, '/app/projects?tab=1');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/app/projects?tab=1');
      const refresh = refreshFrom(res);
      expect(refresh).toBeDefined();
      const session = await refreshWith(env, refresh ?? '');
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ user: { email, emailVerified: true } });
      const userId = (session.body as { user: { id: string } }).user.id;
      const events = await authAudit(env, { user_id: userId });
      expect(events.map((e) => e.action)).toEqual(['auth.register', 'auth.login']);
      expect(events[1]?.details).toMatchObject({ factors: [`oauth:${id}`] });

      // The provider changes the email: the subject still finds the same account, nothing new is created.
      providers[id].user = { subject, email: uniqueEmail('changed'), emailVerified: true, name: 'x' };
      const again = await signIn(id);
      expect(again.res.headers.get('location')).toBe('/app/home');
      const second = await refreshWith(env, refreshFrom(again.res) ?? '');
      expect((second.body as { user: { id: string } }).user.id).toBe(userId);
    },
  );
});

describe('A-18: state, code and ID token checks', () => {
  it('refuses a missing, mismatched or replayed state, a missing browser binding, and a foreign code: 400, no session', async () => {
    asUser('google', uniqueEmail());
    const before = await familyCount();
    const flow = await authorize('google');
    const noState = new URL(flow.callback);
    noState.searchParams.delete('state');
    expect((await callback(noState, flow.binding)).status).toBe(400);
    const wrongState = new URL(flow.callback);
    wrongState.searchParams.set('state', 'x'.repeat(43));
    expect((await callback(wrongState, flow.binding)).status).toBe(400);
    const other = await authorize('google');
    expect((await callback(other.callback, flow.binding)).status).toBe(400);
    const third = await authorize('google');
    expect((await callback(third.callback, undefined)).status).toBe(400);

    const good = await authorize('google');
    const foreign = new URL(good.callback);
    foreign.searchParams.set('code', 'made-up-code');
    const res = await callback(foreign, good.binding);
    expect(res.status).toBe(400);
    expect(refreshFrom(res)).toBeUndefined();
    // The state was spent by that attempt: the genuine code cannot be brought back with it.
    expect((await callback(good.callback, good.binding)).status).toBe(400);

    const once = await authorize('google');
    expect((await callback(once.callback, once.binding)).status).toBe(302);
    expect((await callback(once.callback, once.binding)).status).toBe(400);
    expect(await familyCount()).toBe(before + 1);
  });

  it('binds the state to its provider and checks the iss parameter (mix-up defence)', async () => {
    asUser('google', uniqueEmail());
    const flow = await authorize('google');
    const swapped = new URL(flow.callback.toString().replace('/oauth/google/', '/oauth/microsoft/'));
    expect((await callback(swapped, flow.binding)).status).toBe(400);
    const flow2 = await authorize('google');
    const bad = new URL(flow2.callback);
    bad.searchParams.set('iss', providers.microsoft.issuer);
    expect((await callback(bad, flow2.binding)).status).toBe(400);
  });

  it.each([
    ['wrong audience', { aud: 'someone-else' }],
    ['wrong issuer', { iss: 'https://evil.example' }],
    ['wrong nonce', { nonce: 'not-the-nonce' }],
    ['expired', { iat: Math.floor(Date.now() / 1000) - 3600, exp: Math.floor(Date.now() / 1000) - 600 }],
  ])('refuses an ID token with %s', async (_what, overrides) => {
    asUser('microsoft', uniqueEmail());
    providers.microsoft.idTokenOverrides = overrides;
    try {
      const { res } = await signIn('microsoft');
      expect(res.status).toBe(400);
      expect(refreshFrom(res)).toBeUndefined();
    } finally {
      providers.microsoft.idTokenOverrides = {};
    }
  });

  it('refuses an ID token signed with a key the provider does not publish', async () => {
    asUser('google', uniqueEmail());
    providers.google.signWithForeignKey = true;
    try {
      expect((await signIn('google')).res.status).toBe(400);
    } finally {
      providers.google.signWithForeignKey = false;
    }
  });
});

describe('provider failures', () => {
  it('a provider that drops the code exchange answers 400, audited, no session (not a 500)', async () => {
    asUser('google', uniqueEmail());
    const before = await familyCount();
    providers.google.tokenEndpointDown = true;
    try {
      const { res } = await signIn('google');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'OAuth sign-in failed; start again' });
      expect(refreshFrom(res)).toBeUndefined();
    } finally {
      providers.google.tokenEndpointDown = false;
    }
    expect(await familyCount()).toBe(before);
    const failed = await authAudit(env, { action: 'auth.oauth.login', status: 'failure', actor: 'google:unknown' });
    expect(failed.at(-1)?.details).toMatchObject({ provider: 'google', reason: expect.stringMatching(/unreachable/) });
  });
});

describe('A-19: never linked or logged in by email', () => {
  it("refuses a provider account carrying an existing local user's email, verified or not", async () => {
    const local = await registerVerified(env);
    for (const [id, verified] of [
      ['google', true],
      ['microsoft', true],
      ['github', true],
      ['microsoft', false],
    ] as const) {
      const subject = asUser(id, local.email.toUpperCase(), verified);
      const { res } = await signIn(id);
      // A verified address that is taken: 409; an unverified one is refused before the address is even looked at.
      expect(res.status).toBe(verified ? 409 : 400);
      expect(refreshFrom(res)).toBeUndefined();
      const linked = await env.platform.services.db('oauth_identities').where({ provider: id, subject }).first('id');
      expect(linked).toBeUndefined();
    }
  });

  it("a second provider account claiming an OAuth user's email does not get into that account", async () => {
    const email = uniqueEmail('owner');
    asUser('github', email);
    const first = await signIn('github');
    expect(first.res.status).toBe(302);
    asUser('google', email);
    const attacker = await signIn('google');
    expect(attacker.res.status).toBe(409);
    expect(refreshFrom(attacker.res)).toBeUndefined();
  });

  it('refuses to create an account without a verified email from the provider', async () => {
    asUser('github', null);
    expect((await signIn('github')).res.status).toBe(400);
    asUser('google', uniqueEmail(), false);
    expect((await signIn('google')).res.status).toBe(400);
  });
});

describe('A-20: post-login redirect', () => {
  it.each([
    'https://evil.tld',
    '//evil.tld',
    '/\\evil.tld',
    '/%5Cevil.tld/../x',
    'javascript:alert(1)',
    '/other',
    ' /app/x',
  ])('ignores returnTo=%s and lands on the default page', async (returnTo) => {
    asUser('google', uniqueEmail());
    const { res } = await signIn('google', returnTo);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/app/home');
  });

  it('keeps an allowed relative path', async () => {
    asUser('google', uniqueEmail());
    expect((await signIn('google', '/settings')).res.headers.get('location')).toBe('/settings');
  });
});

describe('MFA on the OAuth path', () => {
  it('an OAuth login of a user with TOTP hands over to the MFA page and issues nothing until the code', async () => {
    const email = uniqueEmail('mfa');
    asUser('github', email);
    const first = await signIn('github');
    const session = await refreshWith(env, refreshFrom(first.res) ?? '');
    const { secret } = await enableTotp(env, (session.body as { accessToken: string }).accessToken);

    const { res } = await signIn('github', '/app/after-mfa');
    expect(res.status).toBe(302);
    expect(refreshFrom(res)).toBeUndefined();
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^\/login\/mfa#mfaToken=[A-Za-z0-9_-]+&methods=totp,recovery_code,email$/);
    const mfaToken = /mfaToken=([^&]+)/.exec(location)?.[1] ?? '';
    expect((await env.http.get('/api/v1/auth/me', { token: mfaToken })).status).toBe(401);
    const ok = await env.http.post('/api/v1/auth/mfa/verify', { body: { mfaToken, code: await totp(secret) } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ tokenType: 'Bearer', user: { email }, returnTo: '/app/after-mfa' });
    expect(refreshFrom(ok)).toBeDefined();
  });
});
