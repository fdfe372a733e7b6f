import type { Config } from '../config';
import { loadSchemaValidator, type SchemaValidator } from '../http/schema-validator';
import { createAccessTokens, type AccessTokens } from '../identity/access-token';
import { createIdentity, type Identity } from '../identity/identity';
import { withVerifiedTokenCache } from '../identity/verified-token-cache';
import { createStandingCache, type StandingCache } from '../iam/standing-cache';
import { jwtAuthenticator, tokenLiveness } from '../identity/jwt-authenticator';
import type { Authenticator } from '../iam/authenticator';
import { withCurrentMembership } from '../orgs/current-membership';
import type { SigningKeys } from '../identity/signing-keys';
import type { Logger } from '../logging/logger';
import { createMemberMfaReset, type MemberMfaReset } from '../identity/member-mfa-reset';
import { createServices, type Endpoints, type Services } from './services';

/** What only the HTTP API needs on top of the shared services: JWT keys, request schemas, the identity flows. */
export interface ApiServices extends Services {
  schemas: SchemaValidator;
  accessTokens: AccessTokens;
  identity: Identity;
  memberMfa: MemberMfaReset;
  /** Users' standing as the auth chain reads it, cached for seconds (closed by closeServices). */
  standing: StandingCache;
  /** A user's access token with the role of their membership as it is now (the chain's organization-context link). */
  sessionAuthenticator: Authenticator;
}

function accessTokensFor(config: Config, keys: SigningKeys): AccessTokens {
  return withVerifiedTokenCache(
    createAccessTokens(keys, config.jwt.issuer, config.jwt.audience, config.jwt.accessTokenTtlSeconds),
  );
}

/** The composition root of an API process: the shared services plus the HTTP-only parts, each built once. */
export async function createApiServices(config: Config, endpoints: Endpoints, log?: Logger): Promise<ApiServices> {
  const services = await createServices(config, endpoints, log);
  const accessTokens = accessTokensFor(config, services.signingKeys);
  const identity = createIdentity({ ...services, accessTokens });
  const standing = createStandingCache({
    ttlMs: config.identity.standingCacheTtlMs,
    db: services.db,
    notifications: services.pgNotifications,
  });
  return {
    ...services,
    schemas: loadSchemaValidator(),
    accessTokens,
    identity,
    memberMfa: createMemberMfaReset({ db: services.db, misses: services.misses, mfa: identity.mfaSettings }),
    standing,
    sessionAuthenticator: withCurrentMembership(
      services.db,
      jwtAuthenticator(accessTokens, tokenLiveness(services.db, standing)),
      standing,
    ),
  };
}
