import type { Queryable } from '../db/knex';
import { deleteOwned, insertOne, timestampsOf, updateOwned } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';

/** An entry of the organization's tenant catalogue (customers or business units that projects deploy for). */
export interface OrgTenant {
  id: string;
  slug: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

interface TenantRow {
  id: string;
  slug: string;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'slug', 'name', 'description', 'created_at', 'updated_at'] as const;

function rowToTenant(row: TenantRow): OrgTenant {
  return { id: row.id, slug: row.slug, name: row.name, description: row.description, ...timestampsOf(row) };
}

export async function insertTenant(
  db: Queryable,
  organizationId: string,
  input: { slug: string; name: string; description: string },
): Promise<OrgTenant> {
  const row = await insertOne<TenantRow>(
    db('org_tenants')
      .insert({ organization_id: organizationId, ...input })
      .returning(COLUMNS),
    'a tenant with this slug already exists',
  );
  return rowToTenant(row);
}

export async function findTenant(db: Queryable, organizationId: string, id: string): Promise<OrgTenant | null> {
  const row = (await db('org_tenants').where({ organization_id: organizationId, id }).first(COLUMNS)) as
    TenantRow | undefined;
  return row ? rowToTenant(row) : null;
}

export function listTenants(db: Queryable, organizationId: string, page: PageRequest): Promise<Page<OrgTenant>> {
  return keysetPage<TenantRow, OrgTenant>(
    db('org_tenants').where({ organization_id: organizationId }).select(COLUMNS),
    ['slug', 'id'],
    page,
    (r) => [r.slug, r.id],
    rowToTenant,
  );
}

/** False when the tenant is gone (deleted meanwhile). */
export function updateTenant(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string },
): Promise<boolean> {
  return updateOwned(db, 'org_tenants', organizationId, id, changes);
}

/** False when the tenant was already gone. */
export function deleteTenant(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return deleteOwned(db, 'org_tenants', organizationId, id);
}

/** The catalogue entry with this slug, created when missing (id of the entry, and whether it was created). */
export async function catalogueTenantFor(
  db: Queryable,
  organizationId: string,
  input: { slug: string; name: string },
): Promise<{ id: string; created: boolean }> {
  const inserted = (await db('org_tenants')
    .insert({ organization_id: organizationId, slug: input.slug, name: input.name })
    .onConflict(['organization_id', 'slug'])
    .ignore()
    .returning('id')) as { id: string }[];
  if (inserted[0]) return { id: inserted[0].id, created: true };
  const row = (await db('org_tenants').where({ organization_id: organizationId, slug: input.slug }).first('id')) as {
    id: string;
  };
  return { id: row.id, created: false };
}
