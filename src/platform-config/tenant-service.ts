import type { Tx } from '../db/knex';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import type { PageRequest } from '../db/pagination';
import { refuseWhileUsed } from './entry-uses';
import { deleteTenant, findTenant, insertTenant, listTenants, updateTenant, type OrgTenant } from './tenant-repository';

export type TenantService = ReturnType<typeof createTenantService>;

/** The organization's tenant catalogue; project tenants (a later issue) refer to these entries. */
export function createTenantService(deps: OrgDomainDeps) {
  const { db } = deps;

  const {
    lookup: tenantOf,
    record: audited,
    found,
  } = orgResource(deps, { table: 'org_tenants', resourceType: 'tenant', category: 'configuration' }, findTenant);
  const record = (trx: Tx, caller: OrgCaller, action: string, tenant: OrgTenant, details: Record<string, unknown>) =>
    audited(trx, caller, action, tenant, details, { tenantId: tenant.id });

  return {
    list: (caller: OrgCaller, page: PageRequest) => listTenants(db, caller.organizationId, page),

    get: (caller: OrgCaller, id: string) => tenantOf(caller, id),

    create(caller: OrgCaller, input: { slug: string; name: string; description?: string }): Promise<OrgTenant> {
      return db.transaction(async (trx) => {
        const tenant = await insertTenant(trx, caller.organizationId, {
          slug: input.slug,
          name: input.name,
          description: input.description ?? '',
        });
        await record(trx, caller, 'tenant.create', tenant, { name: tenant.name });
        return tenant;
      });
    },

    /** The lookup runs in the transaction of the change: a tenant deleted meanwhile answers 404 and audits nothing. */
    update(caller: OrgCaller, id: string, changes: { name?: string; description?: string }): Promise<OrgTenant> {
      return db.transaction(async (trx) => {
        const tenant = await tenantOf(caller, id, trx);
        found(await updateTenant(trx, caller.organizationId, tenant.id, changes));
        await record(trx, caller, 'tenant.update', tenant, { changes });
        return (await findTenant(trx, caller.organizationId, tenant.id)) ?? tenant;
      });
    },

    /**
     * `clear` runs with the entry locked (entry-uses.ts): it refuses while a project uses the entry, or removes those
     * uses safely (src/environment-removal); the entry then goes, audited in the same transaction.
     */
    delete<T>(caller: OrgCaller, id: string, clear: (tenant: OrgTenant) => Promise<T>): Promise<T> {
      return db.transaction(async (trx) => {
        const tenant = await tenantOf(caller, id, trx);
        const entry = { table: 'org_tenants' as const, organizationId: caller.organizationId, id: tenant.id };
        const cleared = await refuseWhileUsed(trx, entry, () => clear(tenant));
        found(await deleteTenant(trx, caller.organizationId, tenant.id));
        await record(trx, caller, 'tenant.delete', tenant, { name: tenant.name });
        return cleared;
      });
    },
  };
}
