import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify, type JWTHeaderParameters } from 'jose';
import type { OrgRole } from '../iam/principal';
import { isOrgRole } from '../iam/principal';
import { ACCESS_TOKEN_ALG, type SigningKeys } from './signing-keys';

export const ACCESS_TOKEN_TYP = 'at+jwt';

export interface AccessTokenSubject {
  userId: string;
  email: string;
  organizationId: string | null;
  role: OrgRole | null;
  /**
   * The session (refresh family) the token belongs to. Every token the auth flows issue carries it, so revoking the
   * family (logout, reuse detection, password change) stops its access tokens at once instead of after 15 minutes.
   */
  sessionId?: string;
}

export interface AccessTokenClaims extends AccessTokenSubject {
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

export interface AccessTokens {
  ttlSeconds: number;
  sign(subject: AccessTokenSubject): Promise<{ token: string; claims: AccessTokenClaims }>;
  /** Returns null for anything that is not a valid, unexpired access token of this issuer. */
  verify(token: string): Promise<AccessTokenClaims | null>;
  /**
   * When `token` is one of ours, correctly signed, that only failed because it expired: its expiry (seconds since the
   * epoch), so the caller can say so; null otherwise. The signature is checked before the expiry, so a forged token
   * never learns anything.
   */
  expiredAt(token: string): Promise<number | null>;
}

export function createAccessTokens(
  keys: SigningKeys,
  issuer: string,
  audience: string,
  ttlSeconds: number,
): AccessTokens {
  // Keys are looked up only in our own set by kid: jku/x5u/jwk headers are never consulted.
  const resolveKey = (header: JWTHeaderParameters) => {
    const found = keys.verifyKeys.find((k) => k.kid === header.kid);
    if (!found) throw new Error('unknown kid');
    return found.publicKey;
  };
  const verifyOptions = {
    algorithms: [ACCESS_TOKEN_ALG],
    issuer,
    audience,
    typ: ACCESS_TOKEN_TYP,
    requiredClaims: ['sub', 'exp', 'iat', 'jti'],
  };
  return {
    ttlSeconds,
    async expiredAt(token) {
      try {
        await jwtVerify(token, resolveKey, verifyOptions);
        return null;
      } catch (err) {
        return err instanceof joseErrors.JWTExpired && typeof err.payload.exp === 'number' ? err.payload.exp : null;
      }
    },
    async sign(subject) {
      const jti = randomUUID();
      const issuedAt = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({
        uid: subject.userId,
        email: subject.email,
        org_id: subject.organizationId,
        role: subject.role,
        ...(subject.sessionId ? { sid: subject.sessionId } : {}),
      })
        .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: keys.kid, typ: ACCESS_TOKEN_TYP })
        .setSubject(subject.userId)
        .setIssuer(issuer)
        .setAudience(audience)
        .setJti(jti)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(keys.privateKey);
      return { token, claims: { ...subject, jti, issuedAt, expiresAt: issuedAt + ttlSeconds } };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, resolveKey, verifyOptions);
        if (typeof payload.sub !== 'string' || payload.uid !== payload.sub || typeof payload.email !== 'string')
          return null;
        const orgId = payload.org_id;
        const role = payload.role;
        if (orgId !== null && typeof orgId !== 'string') return null;
        if (role !== null && !isOrgRole(role)) return null;
        if (payload.sid !== undefined && typeof payload.sid !== 'string') return null;
        return {
          userId: payload.sub,
          email: payload.email,
          organizationId: orgId,
          role: orgId === null ? null : role,
          ...(payload.sid === undefined ? {} : { sessionId: payload.sid }),
          jti: String(payload.jti),
          issuedAt: Number(payload.iat),
          expiresAt: Number(payload.exp),
        };
      } catch {
        return null;
      }
    },
  };
}
