import type { AccessTokenClaims, AccessTokens } from './access-token';

/** How many verified tokens an API process remembers (the least recently used is dropped first). */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * Signature verification once per access token rather than once per request (issue 34 item 5): the exact token string
 * maps to the claims its first verification gave. A hit re-checks the expiry, as verification would, so a token
 * stops working at its `exp` whether cached or not; only valid tokens are stored, so a forged or malformed one is
 * verified (and refused) every time. Signing keys are fixed for the life of the process, so a cached signature check
 * cannot go stale; whether the token still stands (session, user, membership) is the liveness check's business and
 * is asked on every request.
 */
export function withVerifiedTokenCache(tokens: AccessTokens, max = VERIFIED_TOKEN_CACHE_SIZE): AccessTokens {
  const verified = new Map<string, Readonly<AccessTokenClaims>>();
  return {
    ...tokens,
    async verify(token) {
      const hit = verified.get(token);
      if (hit) {
        verified.delete(token);
        if (hit.expiresAt <= Date.now() / 1000) return null;
        verified.set(token, hit);
        return hit;
      }
      const claims = await tokens.verify(token);
      if (claims) {
        verified.set(token, Object.freeze(claims));
        if (verified.size > max) verified.delete(verified.keys().next().value as string);
      }
      return claims;
    },
  };
}
