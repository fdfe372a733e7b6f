import type { Queryable } from '../db/knex';
import type { Authenticator } from '../iam/authenticator';
import type { Principal } from '../iam/principal';
import type { AccessTokenClaims, AccessTokens } from './access-token';

/**
 * Whether a signature-valid access token still stands: its user exists and is enabled, it was issued after the
 * user's "tokens valid after" instant (password change or reset), and its session is neither revoked nor expired.
 * One primary-key lookup per request is the price of ending sessions at once (SECURITY-BAR SES-2).
 */
export type TokenLiveness = (claims: AccessTokenClaims) => Promise<boolean>;

export function tokenLiveness(db: Queryable): TokenLiveness {
  return async (claims) => {
    const user = (await db('users')
      .where({ id: claims.userId })
      .first('disabled_at', db.raw('floor(extract(epoch from tokens_valid_after)) as valid_after'))) as
      { disabled_at: Date | null; valid_after: string | null } | undefined;
    if (!user || user.disabled_at !== null) return false;
    if (user.valid_after !== null && claims.issuedAt < Number(user.valid_after)) return false;
    if (claims.sessionId === undefined) return true;
    const family = (await db('session_families')
      .where({ id: claims.sessionId, user_id: claims.userId })
      .whereNull('revoked_at')
      .where('expires_at', '>', db.fn.now())
      .first('id')) as { id: string } | undefined;
    return family !== undefined;
  };
}

/** Session JWTs: only our own access tokens, verified with pinned algorithm, issuer, audience and type. */
export function jwtAuthenticator(tokens: AccessTokens, isLive: TokenLiveness): Authenticator {
  return {
    async authenticate(token): Promise<Principal | null> {
      if (token.startsWith('svc_') || token.startsWith('svcacct_')) return null;
      const claims = await tokens.verify(token);
      if (!claims || !(await isLive(claims))) return null;
      return {
        kind: 'user',
        actorType: 'user',
        actor: claims.email,
        userId: claims.userId,
        email: claims.email,
        organizationId: claims.organizationId,
        role: claims.role,
        credentialId: claims.jti,
        isInstanceAdmin: false,
      };
    },
  };
}
