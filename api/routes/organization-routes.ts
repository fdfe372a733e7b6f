import type { Services } from '../../src/runtime/services';
import type { RouteDef } from '../route-def';

/** Organizations, invitations, teams, grants, IAM views, features and platform configuration. */
export function organizationRoutes(_services: Services): RouteDef[] {
  return [];
}
