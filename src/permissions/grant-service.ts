import type { Tx } from '../db/knex';
import { InvalidInput, NotFound } from '../errors';
import { isUuid } from '../db/uuid';
import { holderOf, orgEntry, type OrgCaller } from '../iam/caller';
import { assertMayConfer } from '../iam/conferred-role';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import { RESOURCE_ID_PATTERN, type ResourceType } from '../iam/resource-refs';
import { findMember } from '../orgs/membership-repository';
import type { Page, PageRequest } from '../db/pagination';
import { findTeam } from '../teams/team-repository';
import { findServiceAccount } from '../machine-access/service-account-repository';
import {
  deleteGrant,
  findGrant,
  insertGrant,
  listGrants,
  setGrantRole,
  type Grant,
  type GrantFilters,
  type GrantRole,
  type NewGrant,
} from './grant-repository';

export type GrantService = ReturnType<typeof createGrantService>;

/**
 * Resource grants give a user or a team a role on one cluster, project or tenant of the organization. Those
 * resources belong to later issues, so the resource id is checked by shape only (RESOURCE_ID_PATTERN): a grant on a
 * resource that does not exist yet simply never matches an action until it does.
 */
export function createGrantService(deps: OrgDomainDeps) {
  const { db, audit } = deps;

  const { lookup: grantOf, found } = orgResource(
    deps,
    { table: 'resource_grants', resourceType: 'permission', category: 'role_changes' },
    findGrant,
  );
  const { lookup: serviceAccountOf } = orgResource(
    deps,
    { table: 'service_accounts', resourceType: 'service account', category: 'role_changes' },
    findServiceAccount,
  );
  const { lookup: teamOf } = orgResource(
    deps,
    { table: 'teams', resourceType: 'team', category: 'role_changes' },
    findTeam,
  );

  const mayGrant = (caller: OrgCaller, role: GrantRole, on: { resourceType: ResourceType; resourceId: string }) =>
    assertMayConfer(holderOf(caller), role, 'a grant', { type: on.resourceType, id: on.resourceId });

  /** The subject must belong to the caller's organization; a foreign team id is audited like any foreign id. */
  async function checkSubject(caller: OrgCaller, input: NewGrant): Promise<string> {
    if (input.subjectType === 'team') return (await teamOf(caller, input.subjectId)).slug;
    if (input.subjectType === 'service_account') return (await serviceAccountOf(caller, input.subjectId)).name;
    const member = isUuid(input.subjectId) ? await findMember(db, caller.organizationId, input.subjectId) : null;
    if (!member) throw new NotFound('member not found');
    return member.email;
  }

  function record(trx: Tx, caller: OrgCaller, action: string, grant: Grant, details: Record<string, unknown> = {}) {
    return audit.append(
      trx,
      orgEntry(caller, {
        action,
        category: 'role_changes',
        resourceType: 'permission',
        resourceId: grant.id,
        details: {
          subjectType: grant.subjectType,
          subjectId: grant.subjectId,
          resourceType: grant.resourceType,
          resourceId: grant.resourceId,
          role: grant.role,
          ...details,
        },
      }),
    );
  }

  return {
    list: (caller: OrgCaller, filters: GrantFilters, page: PageRequest): Promise<Page<Grant>> =>
      listGrants(db, caller.organizationId, filters, page),

    get: (caller: OrgCaller, id: string) => grantOf(caller, id),

    async create(caller: OrgCaller, input: NewGrant): Promise<Grant> {
      if (!RESOURCE_ID_PATTERN.test(input.resourceId)) throw new InvalidInput('resourceId is not a valid identifier');
      mayGrant(caller, input.role, input);
      const subjectName = await checkSubject(caller, input);
      return db.transaction(async (trx) => {
        const grant = await insertGrant(trx, caller.organizationId, input, caller.principal.userId);
        await record(trx, caller, 'permission.grant', grant, { subject: subjectName });
        return grant;
      });
    },

    /** The lookup runs in the transaction of the change: a grant revoked meanwhile answers 404 and audits nothing. */
    updateRole(caller: OrgCaller, id: string, role: GrantRole): Promise<Grant> {
      return db.transaction(async (trx) => {
        const grant = await grantOf(caller, id, trx);
        if (grant.role === role) return grant;
        mayGrant(caller, role, grant);
        found(await setGrantRole(trx, caller.organizationId, grant.id, role));
        const updated = { ...grant, role };
        await record(trx, caller, 'permission.update', updated, { from: grant.role });
        return updated;
      });
    },

    revoke(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const grant = await grantOf(caller, id, trx);
        found(await deleteGrant(trx, caller.organizationId, grant.id));
        await record(trx, caller, 'permission.revoke', grant);
      });
    },
  };
}
