import type { Queryable } from '../db/knex';
import { isUniqueViolation } from '../db/knex';
import { Conflict } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../orgs/pagination';

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
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function insertTenant(
  db: Queryable,
  organizationId: string,
  input: { slug: string; name: string; description: string },
): Promise<OrgTenant> {
  try {
    const [row] = (await db('org_tenants')
      .insert({ organization_id: organizationId, ...input })
      .returning(COLUMNS)) as TenantRow[];
    if (!row) throw new Error('insert returned no row');
    return rowToTenant(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict('a tenant with this slug already exists');
    throw err;
  }
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

export async function updateTenant(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string },
): Promise<OrgTenant> {
  const [row] = (await db('org_tenants')
    .where({ organization_id: organizationId, id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning(COLUMNS)) as TenantRow[];
  if (!row) throw new Error('tenant vanished during update');
  return rowToTenant(row);
}

export async function deleteTenant(db: Queryable, organizationId: string, id: string): Promise<void> {
  await db('org_tenants').where({ organization_id: organizationId, id }).delete();
}
