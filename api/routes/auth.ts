import { createIdentity } from '../../src/identity/identity';
import type { Services } from '../../src/runtime/services';
import type { RouteDef } from '../route-def';
import { authAccountRoutes } from './auth-account-routes';
import { authMfaRoutes } from './auth-mfa-routes';
import { authOAuthRoutes } from './auth-oauth-routes';
import { authSessionRoutes } from './auth-session-routes';

/** Identity routes under /api/v1/auth (registration, login, sessions, MFA, OAuth), plus the owner's MFA reset. */
export function authRoutes(services: Services): RouteDef[] {
  const identity = createIdentity(services);
  return [
    ...authSessionRoutes(identity, services),
    ...authAccountRoutes(identity, services.accessTokens),
    ...authMfaRoutes(identity, services),
    ...authOAuthRoutes(identity),
  ];
}
