import { isUuid } from '../db/uuid';
import { Unauthorized } from '../errors';
import type { Queryable } from '../db/knex';
import type { Authenticator } from '../iam/authenticator';
import type { StandingCache } from '../iam/standing-cache';
import type { Principal } from '../iam/principal';
import { userStanding } from '../users/user-credentials';
import type { AccessTokenClaims, AccessTokens } from './access-token';

/**
 * Whether a signature-valid access token still stands: its user exists and is enabled, it was issued after the
 * user's "tokens valid after" instant (password change or reset), and its session is neither revoked nor expired.
 * One primary-key lookup, cached for seconds and forgotten at once on any change (src/iam/standing-cache.ts), is the
 * price of ending sessions at once (docs/security.md SES-2).
 */
export type TokenLiveness = (claims: AccessTokenClaims) => Promise<boolean>;

type StandingRow = { disabled_at: Date | null; valid_after: string | null; family_id: string | null } | undefined;

export function tokenLiveness(db: Queryable, cache: StandingCache): TokenLiveness {
  return async (claims) => {
    const sid = claims.sessionId;
    if (!isUuid(claims.userId) || (sid !== undefined && !isUuid(sid))) return false;
    const row = await cache.read(claims.userId, `session:${sid ?? ''}`, () => standingOf(db, claims.userId, sid));
    if (!row || row.disabled_at !== null) return false;
    if (row.valid_after !== null && claims.issuedAt < Number(row.valid_after)) return false;
    return sid === undefined || row.family_id !== null;
  };
}

async function standingOf(db: Queryable, userId: string, sid: string | undefined): Promise<StandingRow> {
  const query = db
    .from(userStanding(db, userId).as('u'))
    .first('u.disabled_at', 'u.valid_after', sid === undefined ? db.raw('NULL as family_id') : 'f.id as family_id');
  if (sid !== undefined) {
    void query.leftJoin('session_families as f', (j) => {
      j.on('f.user_id', '=', 'u.id')
        .andOnVal('f.id', '=', sid)
        .andOnNull('f.revoked_at')
        .andOn('f.expires_at', '>', db.raw('now()'));
    });
  }
  return (await query) as StandingRow;
}

/** Session JWTs: only our own access tokens, verified with pinned algorithm, issuer, audience and type. */
export function jwtAuthenticator(tokens: AccessTokens, isLive: TokenLiveness): Authenticator {
  return {
    async authenticate(token): Promise<Principal | null> {
      if (token.startsWith('svc_') || token.startsWith('svcacct_')) return null;
      const claims = await tokens.verify(token);
      const expiredAt = claims ? null : await tokens.expiredAt(token);
      if (expiredAt !== null) {
        throw new Unauthorized(
          `missing or invalid token: the access token expired at ${new Date(expiredAt * 1000).toISOString()}; ` +
            'refresh it (POST /api/v1/auth/refresh) or sign in again',
        );
      }
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
        sessionId: claims.sessionId,
        isInstanceAdmin: false,
      };
    },
  };
}
