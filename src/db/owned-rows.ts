import type { Knex } from 'knex';
import { isUniqueViolation, type Queryable } from './knex';
import { Conflict, NotFound } from '../errors';

/**
 * Storage helpers shared by the repositories of organization-owned tables (teams, tenants, environments, grants,
 * invitations, organizations, and every later domain): the same insert, update and delete shapes, always scoped by the organization.
 */

/** `created_at` and `updated_at` as the ISO strings of API bodies. */
export function timestampsOf(row: { created_at: Date; updated_at: Date }): { createdAt: string; updatedAt: string } {
  return { createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
}

function isForeignKeyViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23503';
}

/**
 * Runs an `INSERT ... RETURNING` of one row. A unique violation answers 409 with `conflict`; a foreign-key violation
 * (the organization, member or team it refers to was removed meanwhile) answers 404 with `gone` when given.
 */
export async function insertOne<Row>(insert: Knex.QueryBuilder, conflict: string, gone?: string): Promise<Row> {
  let rows: Row[];
  try {
    rows = (await insert) as Row[];
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(conflict);
    if (gone !== undefined && isForeignKeyViolation(err)) throw new NotFound(gone);
    throw err;
  }
  const [row] = rows;
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Changes one row of the organization (and its `updated_at`); false when the row is gone. */
export async function updateOwned(
  db: Queryable,
  table: string,
  organizationId: string,
  id: string,
  changes: Record<string, unknown>,
): Promise<boolean> {
  const count = await db(table)
    .where({ organization_id: organizationId, id })
    .update({ ...changes, updated_at: db.fn.now() });
  return count > 0;
}

/** Deletes one row of the organization; false when it was already gone (a concurrent delete won). */
export async function deleteOwned(db: Queryable, table: string, organizationId: string, id: string): Promise<boolean> {
  const count = await db(table).where({ organization_id: organizationId, id }).delete();
  return count > 0;
}
