import type { Queryable } from '../db/knex';
import type { OrgRole } from '../iam/principal';

/** A user's membership as the session layer needs it: which organization, and which role the token carries. */
export interface MembershipView {
  organizationId: string;
  slug: string;
  name: string;
  role: OrgRole;
}

const COLUMNS = ['o.id as organization_id', 'o.slug', 'o.name', 'm.role'] as const;

interface Row {
  organization_id: string;
  slug: string;
  name: string;
  role: OrgRole;
}

const toView = (row: Row): MembershipView => ({
  organizationId: row.organization_id,
  slug: row.slug,
  name: row.name,
  role: row.role,
});

export async function listMemberships(db: Queryable, userId: string): Promise<MembershipView[]> {
  const rows = (await db('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .where('m.user_id', userId)
    .orderBy('o.slug')
    .select(COLUMNS)) as Row[];
  return rows.map(toView);
}

export async function findMembership(
  db: Queryable,
  userId: string,
  organizationId: string,
): Promise<MembershipView | null> {
  const row = (await db('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .where({ 'm.user_id': userId, 'm.organization_id': organizationId })
    .first(COLUMNS)) as Row | undefined;
  return row ? toView(row) : null;
}

/** The organization a fresh session starts in: the only one, or none when the user must pick. */
export async function defaultMembership(db: Queryable, userId: string): Promise<MembershipView | null> {
  const all = await listMemberships(db, userId);
  return all.length === 1 ? (all[0] ?? null) : null;
}
