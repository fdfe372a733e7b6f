import type { Services } from '../../src/runtime/services';
import type { RouteDef } from '../route-def';

/** Identity routes under /api/v1/auth (registration, login, sessions, MFA, OAuth). */
export function authRoutes(_services: Services): RouteDef[] {
  return [];
}
