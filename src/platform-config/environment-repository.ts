import type { Queryable } from '../db/knex';
import { deleteOwned, insertOne, timestampsOf, updateOwned } from '../db/owned-rows';
import { takeAdvisoryLock } from '../db/advisory-lock';

/** One stage of the organization's delivery path (dev, staging, production, ...), in promotion order. */
export interface Environment {
  id: string;
  slug: string;
  name: string;
  production: boolean;
  /** 0-based place in the catalogue; positions are always contiguous. */
  position: number;
  createdAt: string;
  updatedAt: string;
}

interface EnvironmentRow {
  id: string;
  slug: string;
  name: string;
  production: boolean;
  position: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'slug', 'name', 'production', 'position', 'created_at', 'updated_at'] as const;

/** Catalogues are small by nature; the cap keeps the unpaginated list bounded. */
export const MAX_ENVIRONMENTS = 50;

function rowToEnvironment(row: EnvironmentRow): Environment {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    production: row.production,
    position: row.position,
    ...timestampsOf(row),
  };
}

export async function listEnvironments(db: Queryable, organizationId: string): Promise<Environment[]> {
  const rows = (await db('org_environments')
    .where({ organization_id: organizationId })
    .orderBy('position')
    .limit(MAX_ENVIRONMENTS)
    .select(COLUMNS)) as EnvironmentRow[];
  return rows.map(rowToEnvironment);
}

export async function findEnvironment(db: Queryable, organizationId: string, slug: string) {
  const row = (await db('org_environments').where({ organization_id: organizationId, slug }).first(COLUMNS)) as
    EnvironmentRow | undefined;
  return row ? rowToEnvironment(row) : null;
}

/** The catalogue entries (`id`, `slug`, `name`, `production`), for another module's query to join as a derived table. */
export function catalogueEntries(db: Queryable) {
  return db('org_environments').select('id', 'slug', 'name', 'production');
}

/** Serialises catalogue changes of one organization (positions are read, then shifted). */
export async function lockCatalogue(db: Queryable, organizationId: string): Promise<void> {
  await takeAdvisoryLock(db, `environments:${organizationId}`);
}

export async function shiftPositions(db: Queryable, organizationId: string, from: number, by: 1 | -1): Promise<void> {
  await db('org_environments')
    .where({ organization_id: organizationId })
    .where('position', '>=', from)
    .increment('position', by);
}

export async function insertEnvironment(
  db: Queryable,
  organizationId: string,
  input: { slug: string; name: string; production: boolean; position: number },
): Promise<Environment> {
  const row = await insertOne<EnvironmentRow>(
    db('org_environments')
      .insert({ organization_id: organizationId, ...input })
      .returning(COLUMNS),
    'an environment with this slug already exists',
  );
  return rowToEnvironment(row);
}

/** False when the environment is gone. */
export function updateEnvironment(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: { name?: string; production?: boolean; position?: number },
): Promise<boolean> {
  return updateOwned(db, 'org_environments', organizationId, id, changes);
}

/** False when the environment was already gone. */
export function deleteEnvironment(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return deleteOwned(db, 'org_environments', organizationId, id);
}
