import type { Queryable } from '../db/knex';
import type { GrantRoles } from '../iam/authorization-chain';
import { highestGrantRole, highestServiceAccountGrantRole } from './grant-repository';

/** The resource-grant link of the authorization chain, read from this domain's grants. */
export function grantRoles(db: Queryable): GrantRoles {
  return {
    ofUser: (organizationId, userId, resources) => highestGrantRole(db, organizationId, userId, resources),
    ofServiceAccount: (organizationId, serviceAccountId, resources) =>
      highestServiceAccountGrantRole(db, organizationId, serviceAccountId, resources),
  };
}
