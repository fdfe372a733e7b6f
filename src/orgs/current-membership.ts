import type { Queryable } from '../db/knex';
import { membershipRoles } from './membership-repository';
import { userStanding } from '../users/user-credentials';
import type { Authenticator } from '../iam/authenticator';
import type { StandingCache } from '../iam/standing-cache';
import { isOrgRole, type Principal } from '../iam/principal';

/**
 * The organization-context link of the chain for user credentials: the token names the active organization, but the
 * role comes from the membership as it is now, so a demotion or removal takes effect on the next request rather
 * than when the 15-minute token expires (docs/security.md MT-3); cached for seconds, forgotten at once on any change
 * (src/iam/standing-cache.ts). A removed member keeps the organization id with a null
 * role and is refused by the authorizer. Instance administration is read from the user row for the same reason.
 */
type MembershipRow = { is_instance_admin: boolean; role: string | null } | undefined;

function membershipOf(db: Queryable, userId: string, orgId: string | null): Promise<MembershipRow> {
  const query = db.from(userStanding(db, userId).as('u'));
  if (orgId === null) void query.select('u.is_instance_admin', db.raw('NULL as role'));
  else {
    void query
      .leftJoin(membershipRoles(db).as('m'), (j) => {
        j.on('m.user_id', '=', 'u.id').andOnVal('m.organization_id', '=', orgId);
      })
      .select('u.is_instance_admin', 'm.role');
  }
  return query.first() as Promise<MembershipRow>;
}

export function withCurrentMembership(db: Queryable, inner: Authenticator, cache: StandingCache): Authenticator {
  return {
    async authenticate(token): Promise<Principal | null> {
      const principal = await inner.authenticate(token);
      if (!principal || principal.kind !== 'user' || principal.userId === null) return principal;
      const userId = principal.userId;
      const orgId = principal.organizationId;
      const row = await cache.read(userId, `membership:${orgId ?? ''}`, () => membershipOf(db, userId, orgId));
      if (!row) return null;
      return {
        ...principal,
        role: orgId !== null && isOrgRole(row.role) ? row.role : null,
        isInstanceAdmin: row.is_instance_admin,
      };
    },
  };
}
