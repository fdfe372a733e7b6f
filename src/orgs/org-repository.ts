import type { Queryable } from '../db/knex';
import { isUniqueViolation } from '../db/knex';
import { Conflict } from '../errors';
import type { OrgRole } from '../iam/principal';
import { insertOne } from '../db/owned-rows';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface Organization {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  createdAt: string;
}

interface OrgRow {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  created_at: Date;
}

export const ORG_COLUMNS = ['id', 'slug', 'name', 'plan', 'created_at'] as const;
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function rowToOrganization(row: OrgRow): Organization {
  return { id: row.id, slug: row.slug, name: row.name, plan: row.plan, createdAt: row.created_at.toISOString() };
}

export async function insertOrganization(
  db: Queryable,
  input: { slug: string; name: string; plan: Plan },
): Promise<Organization> {
  const row = await insertOne<OrgRow>(
    db('organizations').insert(input).returning(ORG_COLUMNS),
    'an organization with this slug already exists',
  );
  return rowToOrganization(row);
}

export async function findOrganizationBySlug(db: Queryable, slug: string): Promise<Organization | null> {
  const row = (await db('organizations').where({ slug }).first(ORG_COLUMNS)) as OrgRow | undefined;
  return row ? rowToOrganization(row) : null;
}

export async function setOrganizationPlan(db: Queryable, id: string, plan: Plan): Promise<void> {
  await db('organizations').where({ id }).update({ plan, updated_at: db.fn.now() });
}

/** Adds the membership unless the user already is a member; false when they were (the row is left as it is). */
export async function addMembershipIfAbsent(
  db: Queryable,
  organizationId: string,
  userId: string,
  role: OrgRole,
): Promise<boolean> {
  const inserted = (await db('memberships')
    .insert({ organization_id: organizationId, user_id: userId, role })
    .onConflict(['organization_id', 'user_id'])
    .ignore()
    .returning('user_id')) as unknown[];
  return inserted.length > 0;
}

export async function insertMembership(db: Queryable, organizationId: string, userId: string, role: OrgRole) {
  try {
    await db('memberships').insert({ organization_id: organizationId, user_id: userId, role });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict('the user is already a member of this organization');
    throw err;
  }
}

/** Slug of each organization, for another module's query to join as a derived table (a project's Git URL). */
export function organizationSlugs(db: Queryable) {
  return db('organizations').select('id', 'slug');
}

export async function findOrganizationById(db: Queryable, id: string): Promise<Organization | null> {
  const row = (await db('organizations').where({ id }).first(ORG_COLUMNS)) as OrgRow | undefined;
  return row ? rowToOrganization(row) : null;
}

/**
 * Serialises membership changes of one organization until commit (row lock on the organization), so the "at least
 * one owner" rule cannot be broken by two owners demoting each other at the same time.
 */
export async function lockOrganization(trx: Queryable, id: string): Promise<Organization | null> {
  const row = (await trx('organizations').where({ id }).forUpdate().first(ORG_COLUMNS)) as OrgRow | undefined;
  return row ? rowToOrganization(row) : null;
}

export async function updateOrganizationName(db: Queryable, id: string, name: string): Promise<Organization> {
  const [row] = (await db('organizations')
    .where({ id })
    .update({ name, updated_at: db.fn.now() })
    .returning(ORG_COLUMNS)) as OrgRow[];
  if (!row) throw new Error('organization vanished during update');
  return rowToOrganization(row);
}

export async function deleteOrganization(db: Queryable, id: string): Promise<void> {
  await db('organizations').where({ id }).delete();
}
