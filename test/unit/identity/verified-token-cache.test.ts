import { createAccessTokens, type AccessTokens } from '../../../src/identity/access-token';
import { generatePemPair, signingKeysFromPem } from '../../../src/identity/signing-keys';
import { withVerifiedTokenCache } from '../../../src/identity/verified-token-cache';

/** Real ES256 tokens; the wrapper counts how often the signature is actually verified. */
async function counted(ttlSeconds: number) {
  const pems = await generatePemPair();
  const keys = await signingKeysFromPem(pems.privatePem, pems.publicPem, []);
  const real = createAccessTokens(keys, 'iss', 'aud', ttlSeconds);
  const calls = { verify: 0 };
  const inner: AccessTokens = {
    ...real,
    verify: (token) => {
      calls.verify++;
      return real.verify(token);
    },
  };
  return { real, calls, cached: withVerifiedTokenCache(inner, 2) };
}

const subject = {
  userId: '00000000-0000-4000-8000-000000000001',
  email: 'a@example.test',
  organizationId: null,
  role: null,
};

describe('the verified-token cache', () => {
  it('verifies a token once and answers its claims from memory after', async () => {
    const { real, calls, cached } = await counted(600);
    const { token, claims } = await real.sign(subject);
    expect(await cached.verify(token)).toEqual(claims);
    expect(await cached.verify(token)).toEqual(claims);
    expect(calls.verify).toBe(1);
  });

  it('verifies a forged token every time and never accepts it', async () => {
    const { real, calls, cached } = await counted(600);
    const { token } = await real.sign(subject);
    const forged = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    expect(await cached.verify(forged)).toBeNull();
    expect(await cached.verify(forged)).toBeNull();
    expect(calls.verify).toBe(2);
  });

  it('refuses a cached token once it expires', async () => {
    // Two seconds: claims are in whole seconds, so a 1 s token signed late in a second may be expired at once.
    const { real, cached } = await counted(2);
    const { token, claims } = await real.sign(subject);
    expect(await cached.verify(token)).toEqual(claims);
    await new Promise((resolve) => setTimeout(resolve, (claims.expiresAt + 0.05) * 1000 - Date.now()));
    expect(await cached.verify(token)).toBeNull();
  });

  it('keeps the most recently used tokens up to its size', async () => {
    const { real, calls, cached } = await counted(600);
    const [a, b, c] = await Promise.all([real.sign(subject), real.sign(subject), real.sign(subject)]);
    await cached.verify(a.token);
    await cached.verify(b.token);
    await cached.verify(a.token); // a is now the most recent: adding c drops b
    await cached.verify(c.token);
    expect(calls.verify).toBe(3);
    await cached.verify(a.token);
    expect(calls.verify).toBe(3);
    await cached.verify(b.token);
    expect(calls.verify).toBe(4);
  });
});
