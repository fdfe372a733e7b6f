import { catalogueTenantFor } from '../platform-config/tenant-repository';
import type { Tx } from '../db/knex';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import {
  deleteProjectTenant,
  findProjectTenant,
  insertProjectTenant,
  listProjectTenants,
  updateProjectTenant,
  type ProjectTenant,
} from './project-tenant-repository';
import type { ProjectService } from './project-service';

export type ProjectTenantService = ReturnType<typeof createProjectTenantService>;

/**
 * Tenants of a project. Adding `{slug, name}` ties the project tenant to the organization's tenant catalogue entry of
 * that slug, creating the entry when the catalogue lacks it; removing the catalogue entry removes its project tenants.
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

  return {
    async list(caller: OrgCaller, projectSlug: string): Promise<ProjectTenant[]> {
      const project = await projects.projectOf(caller, projectSlug);
      return listProjectTenants(db, caller.organizationId, project.id);
    },

    get: (caller: OrgCaller, id: string) => tenantOf(caller, id),

    add(caller: OrgCaller, projectSlug: string, input: { slug: string; name: string }): Promise<ProjectTenant> {
      return db.transaction(async (trx) => {
        const project = await projects.projectOf(caller, projectSlug, trx);
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

    update(caller: OrgCaller, id: string, changes: { name: string }): Promise<ProjectTenant> {
      return db.transaction(async (trx) => {
        const tenant = await tenantOf(caller, id, trx);
        found(await updateProjectTenant(trx, caller.organizationId, tenant.id, changes.name));
        await record(trx, caller, 'project.tenant.update', tenant, { changes });
        return tenantOf(caller, id, trx);
      });
    },

    /** Its overrides stay in the workloads and no longer apply; the next generate removes its directories. */
    remove(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const tenant = await tenantOf(caller, id, trx);
        found(await deleteProjectTenant(trx, caller.organizationId, tenant.id));
        await record(trx, caller, 'project.tenant.remove', tenant);
      });
    },
  };
}
