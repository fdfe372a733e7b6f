import type { Identity } from '../../../src/identity/identity';
import type { RouteDef } from '../../route-def';
import { authAccountRoutes } from './auth-account-routes';
import { authMfaRoutes } from './auth-mfa-routes';
import { authOAuthRoutes } from './auth-oauth-routes';
import { authSessionRoutes } from './auth-session-routes';

/** Identity routes under /api/v1/auth: registration, login, sessions, MFA, OAuth. */
export function authRoutes(identity: Identity): RouteDef[] {
  return [
    ...authSessionRoutes(identity),
    ...authAccountRoutes(identity),
    ...authMfaRoutes(identity),
    ...authOAuthRoutes(identity),
  ];
}
