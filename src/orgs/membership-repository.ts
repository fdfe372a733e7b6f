import type { Queryable } from '../db/knex';
import type { OrgRole } from '../iam/principal';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { userProfiles } from '../users/user-repository';
import { ORG_COLUMNS, rowToOrganization, type Organization, type Plan } from './org-repository';

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: OrgRole;
  joinedAt: string;
}

interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: OrgRole;
  created_at: Date;
}

const MEMBER_COLUMNS = ['m.user_id', 'u.email', 'u.name', 'm.role', 'm.created_at'] as const;

function rowToMember(row: MemberRow): Member {
  return {
    userId: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    joinedAt: row.created_at.toISOString(),
  };
}

function members(db: Queryable, organizationId: string) {
  return db('memberships as m')
    .join(userProfiles(db).as('u'), 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .select(MEMBER_COLUMNS);
}

export async function findMember(db: Queryable, organizationId: string, userId: string): Promise<Member | null> {
  const row = (await members(db, organizationId).where('m.user_id', userId).first()) as MemberRow | undefined;
  return row ? rowToMember(row) : null;
}

export async function findMemberByEmail(db: Queryable, organizationId: string, email: string): Promise<Member | null> {
  const row = (await members(db, organizationId).whereRaw('lower(u.email) = lower(?)', [email]).first()) as
    MemberRow | undefined;
  return row ? rowToMember(row) : null;
}

export function listMembers(db: Queryable, organizationId: string, page: PageRequest): Promise<Page<Member>> {
  return keysetPage<MemberRow, Member>(
    members(db, organizationId),
    ['u.email', 'm.user_id'],
    page,
    (r) => [r.email, r.user_id],
    rowToMember,
  );
}

/** Each membership's `organization_id`, `user_id` and `role`, for another module's query to join as a derived table. */
export function membershipRoles(db: Queryable) {
  return db('memberships').select('organization_id', 'user_id', 'role');
}

/** The organization's members counted by role (`key`, `n` rows). */
export function countMembersByRole(db: Queryable, organizationId: string) {
  return db('memberships')
    .where({ organization_id: organizationId })
    .groupBy('role')
    .select('role as key', db.raw('count(*) as n')) as Promise<{ key: string; n: string }[]>;
}

/** Owners, then admins, by email: the people an access review looks at first. */
export function listPrivilegedMembers(db: Queryable, organizationId: string, limit: number) {
  return db('memberships as m')
    .join(userProfiles(db).as('u'), 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .whereIn('m.role', ['owner', 'admin'])
    .orderBy([{ column: 'm.role', order: 'desc' }, 'u.email'])
    .limit(limit)
    .select('m.user_id as userId', 'u.email', 'm.role') as Promise<{ userId: string; email: string; role: OrgRole }[]>;
}

export async function countOwners(db: Queryable, organizationId: string): Promise<number> {
  const row = (await db('memberships')
    .where({ organization_id: organizationId, role: 'owner' })
    .count<{ count: string }>('* as count')
    .first()) as { count: string } | undefined;
  return Number(row?.count ?? 0);
}

export async function setMemberRole(db: Queryable, organizationId: string, userId: string, role: OrgRole) {
  await db('memberships').where({ organization_id: organizationId, user_id: userId }).update({ role });
}

/** Team memberships and user grants of the member go with it (composite foreign keys, ON DELETE CASCADE). */
export async function deleteMembership(db: Queryable, organizationId: string, userId: string): Promise<void> {
  await db('memberships').where({ organization_id: organizationId, user_id: userId }).delete();
}

export interface MyOrganization extends Organization {
  role: OrgRole;
}

interface MyOrgRow {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  created_at: Date;
  role: OrgRole;
}

/** The organizations a user belongs to, with the user's role in each, ordered by slug. */
export function listOrganizationsOf(db: Queryable, userId: string, page: PageRequest): Promise<Page<MyOrganization>> {
  const query = db('organizations as o')
    .join('memberships as m', 'm.organization_id', 'o.id')
    .where('m.user_id', userId)
    .select([...ORG_COLUMNS.map((c) => `o.${c}`), 'm.role']);
  return keysetPage<MyOrgRow, MyOrganization>(
    query,
    ['o.slug', 'o.id'],
    page,
    (r) => [r.slug, r.id],
    (r) => ({ ...rowToOrganization(r), role: r.role }),
  );
}

/** How many organizations a user belongs to. */
export async function countMembershipsOf(db: Queryable, userId: string): Promise<number> {
  const row = (await db('memberships').where({ user_id: userId }).count({ n: '*' }).first()) as
    { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}
