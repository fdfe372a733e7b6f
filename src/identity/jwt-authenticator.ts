import type { Authenticator } from '../iam/authenticator';
import type { Principal } from '../iam/principal';
import type { AccessTokens } from './access-token';

/** Session JWTs: only our own access tokens, verified with pinned algorithm, issuer, audience and type. */
export function jwtAuthenticator(tokens: AccessTokens): Authenticator {
  return {
    async authenticate(token): Promise<Principal | null> {
      if (token.startsWith('svc_') || token.startsWith('svcacct_')) return null;
      const claims = await tokens.verify(token);
      if (!claims) return null;
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
