import { catalogueTenantFor } from '../platform-config/tenant-repository';
import type { Queryable, Tx } from '../db/knex';
import { InvalidInput } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import {
  deleteProjectTenant,
  findProjectTenant,
  findProjectTenantsByRef,
  insertProjectTenant,
  listProjectTenants,
  refuseTenantPastLimit,
  updateProjectTenant,
  type ProjectTenant,
} from './project-tenant-repository';
import type { ProjectService } from './project-service';

export type ProjectTenantService = ReturnType<typeof createProjectTenantService>;

/**
 * Tenants of a project. Adding `{slug, name}` ties the project tenant to the organization's tenant catalogue entry of
 * that slug, creating the entry when the catalogue lacks it; removing the catalogue entry removes its project
 * tenants first, safely (src/environment-removal/target-removal.ts `catalogueTenant`).
 */
export function createProjectTenantService(deps: OrgDomainDeps & { projects: ProjectService }) {
  const { db, projects } = deps;
  const {
    lookup: tenantOf,
    record: audited,
    found,
  } = orgResource(
    deps,
    { table: 'project_tenants', resourceType: 'tenant', category: 'configuration' },
    findProjectTenant,
  );
  const record = (trx: Tx, caller: OrgCaller, action: string, tenant: ProjectTenant, details = {}) =>
    audited(
      trx,
      caller,
      action,
      tenant,
      { project: tenant.projectSlug, ...details },
      {
        tenantId: tenant.id,
        projectId: tenant.projectId,
      },
    );

  /**
   * The one tenant lookup of every route that names a tenant outside a project: its id, its catalogue tenant id or
   * its slug (tenant-ref.ts). A slug or catalogue id the organization uses in several projects answers 400 naming
   * them; nothing answers 404 exactly like another organization's id.
   */
  async function resolve(caller: OrgCaller, ref: string, db: Queryable = deps.db): Promise<ProjectTenant> {
    const matches = await findProjectTenantsByRef(db, caller.organizationId, ref);
    if (matches.length > 1) {
      const named = matches.map((t) => `${t.projectSlug}: ${t.id}`).join(', ');
      throw new InvalidInput(`tenant ${ref} is in several projects; name it by its project tenant id (${named})`);
    }
    return matches[0] ?? tenantOf(caller, ref, db);
  }

  return {
    resolve,

    /** The tenant `ref` names within one project (same identifiers as `resolve`), or null. */
    async inProject(caller: OrgCaller, ref: string, projectId: string, db: Queryable = deps.db) {
      const [found] = await findProjectTenantsByRef(db, caller.organizationId, ref, projectId);
      return found ?? null;
    },

    async list(caller: OrgCaller, projectSlug: string): Promise<ProjectTenant[]> {
      const project = await projects.projectOf(caller, projectSlug);
      return listProjectTenants(db, caller.organizationId, project.id);
    },

    get: (caller: OrgCaller, ref: string) => resolve(caller, ref),

    add(caller: OrgCaller, projectSlug: string, input: { slug: string; name: string }): Promise<ProjectTenant> {
      return db.transaction(async (trx) => {
        const project = await projects.projectOf(caller, projectSlug, trx);
        await refuseTenantPastLimit(trx, caller.organizationId, project.id);
        const catalogue = await catalogueTenantFor(trx, caller.organizationId, input);
        const id = await insertProjectTenant(
          trx,
          { organizationId: caller.organizationId, projectId: project.id, catalogueTenantId: catalogue.id },
          input,
        );
        const tenant = await tenantOf(caller, id, trx);
        await record(trx, caller, 'project.tenant.add', tenant, { catalogueCreated: catalogue.created });
        return tenant;
      });
    },

    /** Its name, namespace template (null: the environment's or the project's again) and labels (replaced whole). */
    update(
      caller: OrgCaller,
      ref: string,
      changes: { name?: string; namespaceTemplate?: string | null; labels?: Record<string, string> },
    ): Promise<ProjectTenant> {
      return db.transaction(async (trx) => {
        const tenant = await resolve(caller, ref, trx);
        found(await updateProjectTenant(trx, caller.organizationId, tenant.id, changes));
        await record(trx, caller, 'project.tenant.update', tenant, { changes });
        return tenantOf(caller, tenant.id, trx);
      });
    },

    /** Its overrides stay in the workloads and no longer apply; the next generate removes its directories. */
    remove(caller: OrgCaller, ref: string): Promise<void> {
      return db.transaction(async (trx) => {
        const tenant = await resolve(caller, ref, trx);
        found(await deleteProjectTenant(trx, caller.organizationId, tenant.id));
        await record(trx, caller, 'project.tenant.remove', tenant);
      });
    },
  };
}
