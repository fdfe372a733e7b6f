import type { Queryable } from '../db/knex';
import { insertOne, timestampsOf } from '../db/owned-rows';
import { refuseAtLimit, type RowLimit } from '../db/row-limit';
import { isUuid } from '../db/uuid';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';

/** A tenant a project deploys for; `catalogueTenantId` is its entry in the organization's tenant catalogue. */
export interface ProjectTenant {
  id: string;
  projectId: string;
  projectSlug: string;
  catalogueTenantId: string;
  slug: string;
  name: string;
  /** Its Argo CD namespace template (docs/argocd.md "Destinations"); null: the environment's or the project's. */
  namespaceTemplate: string | null;
  /** Labels a rollout plan's wave selects tenants by (`tier: gold`). */
  labels: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  project_id: string;
  project_slug: string;
  org_tenant_id: string;
  slug: string;
  name: string;
  namespace_template: string | null;
  labels: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

function rowToTenant(row: Row): ProjectTenant {
  return {
    id: row.id,
    projectId: row.project_id,
    projectSlug: row.project_slug,
    catalogueTenantId: row.org_tenant_id,
    slug: row.slug,
    name: row.name,
    namespaceTemplate: row.namespace_template,
    labels: row.labels,
    ...timestampsOf(row),
  };
}

function tenants(db: Queryable, organizationId: string) {
  return db('project_tenants as pt')
    .join('projects as p', 'p.id', 'pt.project_id')
    .where('pt.organization_id', organizationId)
    .select(
      'pt.id',
      'pt.project_id',
      'p.slug as project_slug',
      'pt.org_tenant_id',
      'pt.slug',
      'pt.name',
      'pt.namespace_template',
      'pt.labels',
      'pt.created_at',
      'pt.updated_at',
    );
}

/** Checked on add (docs/operations.md "Limits"); the delivery generator and the tenant list read every tenant. */
/**
 * The project tenants' ids and slugs as a derived table, for another module's raw SQL to join (table ownership:
 * docs/CONTRIBUTING-SPINE.md); organization scoping stays with the query that joins it.
 */
export const TENANT_SLUGS_SQL = '(SELECT id, project_id, slug FROM project_tenants)';

export const TENANTS_PER_PROJECT: RowLimit = {
  max: 1000,
  message: 'a project holds at most 1000 tenants (limit "tenants per project")',
};

/** The project's tenants by slug, as a RowsQuery (read with others in one statement: src/gitops/delivery-model.ts). */
export function projectTenantRows(db: Queryable, organizationId: string, projectId: string): RowsQuery<ProjectTenant> {
  const query = tenants(db, organizationId).where('pt.project_id', projectId).orderBy('pt.slug');
  return rowsQuery<Row, ProjectTenant>(query, ['created_at', 'updated_at'], rowToTenant);
}

export function listProjectTenants(db: Queryable, organizationId: string, projectId: string) {
  return readRows(projectTenantRows(db, organizationId, projectId));
}

/** 409 naming the limit when the project already holds as many tenants as it may. */
export function refuseTenantPastLimit(db: Queryable, organizationId: string, projectId: string): Promise<void> {
  return refuseAtLimit(
    db('project_tenants').where({ organization_id: organizationId, project_id: projectId }),
    TENANTS_PER_PROJECT,
  );
}

export async function findProjectTenant(db: Queryable, organizationId: string, id: string) {
  const row = (await tenants(db, organizationId).where('pt.id', id).first()) as Row | undefined;
  return row ? rowToTenant(row) : null;
}

/** The project tenants, in every project of the organization, of one tenant catalogue entry (by project slug). */
export async function projectTenantsOfEntry(db: Queryable, organizationId: string, catalogueTenantId: string) {
  const rows = (await tenants(db, organizationId)
    .where('pt.org_tenant_id', catalogueTenantId)
    .orderBy('p.slug')) as Row[];
  return rows.map(rowToTenant);
}

/**
 * The project tenants a caller's tenant reference names (docs/tenants: id, catalogue tenant id or slug), within one
 * project when `projectId` is given. Several only for a slug or catalogue id without a project.
 */
export async function findProjectTenantsByRef(
  db: Queryable,
  organizationId: string,
  ref: string,
  projectId?: string,
): Promise<ProjectTenant[]> {
  const key = ref.toLowerCase();
  const query = tenants(db, organizationId).where((w) => {
    void w.where('pt.slug', key);
    if (isUuid(key)) void w.orWhere('pt.id', key).orWhere('pt.org_tenant_id', key);
  });
  if (projectId !== undefined) void query.andWhere('pt.project_id', projectId);
  const rows = (await query.orderBy('p.slug').limit(20)) as Row[];
  return rows.map(rowToTenant);
}

export async function insertProjectTenant(
  db: Queryable,
  ids: { organizationId: string; projectId: string; catalogueTenantId: string },
  input: { slug: string; name: string },
): Promise<string> {
  const row = await insertOne<{ id: string }>(
    db('project_tenants')
      .insert({
        organization_id: ids.organizationId,
        project_id: ids.projectId,
        org_tenant_id: ids.catalogueTenantId,
        ...input,
      })
      .returning('id'),
    'the tenant is already part of this project',
  );
  return row.id;
}

export async function updateProjectTenant(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: { name?: string; namespaceTemplate?: string | null; labels?: Record<string, string> },
) {
  const count = await db('project_tenants')
    .where({ organization_id: organizationId, id })
    .update({
      name: changes.name,
      namespace_template: changes.namespaceTemplate,
      labels: changes.labels === undefined ? undefined : JSON.stringify(changes.labels),
      updated_at: db.fn.now(),
    });
  return count > 0;
}

export async function deleteProjectTenant(db: Queryable, organizationId: string, id: string) {
  return (await db('project_tenants').where({ organization_id: organizationId, id }).delete()) > 0;
}
