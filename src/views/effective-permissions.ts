import type { Db } from '../db/knex';
import { NotFound } from '../errors';
import { findMember } from '../orgs/membership-repository';
import { grantsOfUser, highestGrantRole, type Grant, type SubjectType } from '../permissions/grant-repository';
import { teamsOfUser } from '../teams/team-repository';
import type { AuthorizationChain, Decision } from '../iam/authorization-chain';
import { isUuid } from '../db/uuid';
import { type OrgCaller } from '../iam/caller';
import type { CredentialRestriction, OrgRole, Principal } from '../iam/principal';
import type { ResourceType } from '../iam/resource-refs';
import { atLeast, higherRole } from '../iam/role-authorizer';

export interface EffectivePermissionsQuery {
  resourceType?: ResourceType;
  resourceId?: string;
  action?: string;
}

export interface EffectivePermissions {
  subject: { kind: Principal['kind']; userId: string | null; email: string | null; actor: string };
  organizationId: string;
  organizationRole: OrgRole | null;
  teams: { id: string; slug: string; name: string }[];
  /** Grants reaching the subject directly (`via: user`) or through a team (`via: team`, teamId). */
  grants: (Grant & { via: SubjectType })[];
  /** Action patterns the organization role alone allows (grants add more on their resources; a machine
   * credential's role cap removes some, and its own patterns narrow the rest: see `restriction`). */
  allowedActions: string[];
  /** A project key's or service account token's restriction, as the chain applies it. */
  restriction?: CredentialRestriction;
  resource?: { type: ResourceType; id: string; role: OrgRole | null };
  decision?: Decision;
}

/** "What may this identity do here, and why": the same chain links the routes use, shown instead of enforced. */
export function createEffectivePermissions(deps: { db: Db; authorization: AuthorizationChain }) {
  const { db, authorization } = deps;

  async function describe(principal: Principal, organizationId: string, q: EffectivePermissionsQuery) {
    const role = principal.role;
    const userId = principal.userId;
    const teams = userId ? await teamsOfUser(db, organizationId, userId) : [];
    const grants = userId ? await grantsOfUser(db, organizationId, userId) : [];
    const result: EffectivePermissions = {
      subject: { kind: principal.kind, userId, email: principal.email, actor: principal.actor },
      organizationId,
      organizationRole: role,
      teams,
      grants: grants.map((g) => ({ ...g, via: g.subjectType })),
      allowedActions: Object.entries(authorization.actionRoles)
        .filter(
          ([, needed]) =>
            atLeast(role, needed) && (!principal.restriction || atLeast(principal.restriction.roleCap, needed)),
        )
        .map(([action]) => action),
      ...(principal.restriction ? { restriction: principal.restriction } : {}),
    };
    if (q.resourceType && q.resourceId) {
      const refs = [{ type: q.resourceType, id: q.resourceId }];
      const granted = userId ? await highestGrantRole(db, organizationId, userId, refs) : null;
      result.resource = { type: q.resourceType, id: q.resourceId, role: higherRole(role, granted) };
    }
    if (q.action) result.decision = await authorization.decide(principal, q.action);
    return result;
  }

  return {
    /** The caller's own credential: a session, a project API key or a service account token. */
    mine: (caller: OrgCaller, q: EffectivePermissionsQuery) => describe(caller.principal, caller.organizationId, q),

    /** Another member of the caller's organization, seen as that member's own session would be. */
    async ofMember(caller: OrgCaller, userId: string, q: EffectivePermissionsQuery) {
      const member = isUuid(userId) ? await findMember(db, caller.organizationId, userId) : null;
      if (!member) throw new NotFound('member not found');
      const principal: Principal = {
        kind: 'user',
        actorType: 'user',
        actor: member.email,
        userId: member.userId,
        email: member.email,
        organizationId: caller.organizationId,
        role: member.role,
        credentialId: 'effective-permissions',
        isInstanceAdmin: false,
      };
      return describe(principal, caller.organizationId, q);
    },
  };
}
