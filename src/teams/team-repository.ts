import type { Queryable } from '../db/knex';
import type { OrgRole } from '../iam/principal';
import { deleteOwned, insertOne, timestampsOf, updateOwned } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { membershipRoles } from '../orgs/membership-repository';
import { userProfiles } from '../users/user-repository';

export interface Team {
  id: string;
  slug: string;
  name: string;
  description: string;
  memberCount: number;
  createdAt: string;
  updatedAt: string;
}

interface TeamRow {
  id: string;
  slug: string;
  name: string;
  description: string;
  member_count: string | number;
  created_at: Date;
  updated_at: Date;
}

export interface TeamMember {
  userId: string;
  email: string;
  name: string;
  organizationRole: OrgRole;
  addedAt: string;
}

interface TeamMemberRow {
  user_id: string;
  email: string;
  name: string;
  role: OrgRole;
  created_at: Date;
}

function rowToTeam(row: TeamRow): Team {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    memberCount: Number(row.member_count),
    ...timestampsOf(row),
  };
}

const memberCount = (db: Queryable) => db('team_members as tm').count('*').where('tm.team_id', db.ref('t.id'));

function teams(db: Queryable, organizationId: string) {
  return db('teams as t')
    .where('t.organization_id', organizationId)
    .select(
      't.id',
      't.slug',
      't.name',
      't.description',
      't.created_at',
      't.updated_at',
      memberCount(db).as('member_count'),
    );
}

export async function insertTeam(
  db: Queryable,
  organizationId: string,
  input: { slug: string; name: string; description: string },
): Promise<Team> {
  const row = await insertOne<Omit<TeamRow, 'member_count'>>(
    db('teams')
      .insert({ organization_id: organizationId, ...input })
      .returning(['id', 'slug', 'name', 'description', 'created_at', 'updated_at']),
    'a team with this slug already exists',
  );
  return rowToTeam({ ...row, member_count: 0 });
}

export async function findTeam(db: Queryable, organizationId: string, id: string): Promise<Team | null> {
  const row = (await teams(db, organizationId).where('t.id', id).first()) as TeamRow | undefined;
  return row ? rowToTeam(row) : null;
}

export function listTeams(db: Queryable, organizationId: string, page: PageRequest): Promise<Page<Team>> {
  return keysetPage<TeamRow, Team>(
    teams(db, organizationId),
    ['t.slug', 't.id'],
    page,
    (r) => [r.slug, r.id],
    rowToTeam,
  );
}

/** False when the team is gone (deleted meanwhile). */
export function updateTeam(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string },
): Promise<boolean> {
  return updateOwned(db, 'teams', organizationId, id, changes);
}

/** Team memberships and the team's grants go with it (ON DELETE CASCADE). False when it was already gone. */
export function deleteTeam(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return deleteOwned(db, 'teams', organizationId, id);
}

function teamMembers(db: Queryable, organizationId: string, teamId: string) {
  return db('team_members as tm')
    .join(userProfiles(db).as('u'), 'u.id', 'tm.user_id')
    .join(membershipRoles(db).as('m'), (j) => {
      j.on('m.user_id', '=', 'tm.user_id').andOn('m.organization_id', '=', 'tm.organization_id');
    })
    .where({ 'tm.organization_id': organizationId, 'tm.team_id': teamId })
    .select('tm.user_id', 'u.email', 'u.name', 'm.role', 'tm.created_at');
}

function rowToTeamMember(row: TeamMemberRow): TeamMember {
  return {
    userId: row.user_id,
    email: row.email,
    name: row.name,
    organizationRole: row.role,
    addedAt: row.created_at.toISOString(),
  };
}

export function listTeamMembers(db: Queryable, organizationId: string, teamId: string, page: PageRequest) {
  return keysetPage<TeamMemberRow, TeamMember>(
    teamMembers(db, organizationId, teamId),
    ['u.email', 'tm.user_id'],
    page,
    (r) => [r.email, r.user_id],
    rowToTeamMember,
  );
}

export async function findTeamMember(db: Queryable, organizationId: string, teamId: string, userId: string) {
  const row = (await teamMembers(db, organizationId, teamId).where('tm.user_id', userId).first()) as
    TeamMemberRow | undefined;
  return row ? rowToTeamMember(row) : null;
}

/**
 * The organization membership is a foreign key: only members of the same organization can join its teams. A member
 * removed, or a team deleted, while this runs answers 404 like a missing one.
 */
export async function insertTeamMember(db: Queryable, organizationId: string, teamId: string, userId: string) {
  await insertOne(
    db('team_members')
      .insert({ team_id: teamId, organization_id: organizationId, user_id: userId })
      .returning('user_id'),
    'the user is already a member of this team',
    'member not found',
  );
}

export async function deleteTeamMember(db: Queryable, organizationId: string, teamId: string, userId: string) {
  return db('team_members').where({ organization_id: organizationId, team_id: teamId, user_id: userId }).delete();
}

/** Every team of one user: the approval gate counts them all, so no cap drops one (a user is in few teams). */
export async function teamsOfUser(db: Queryable, organizationId: string, userId: string) {
  return (await db('teams as t')
    .join('team_members as tm', 'tm.team_id', 't.id')
    .where({ 't.organization_id': organizationId, 'tm.user_id': userId })
    .orderBy('t.slug')
    .select('t.id', 't.slug', 't.name')) as { id: string; slug: string; name: string }[];
}

/**
 * The organization's teams (`id`, `slug`, `name`, `members`), for another module's query to select from as a derived
 * table (the access overview).
 */
export function teamSizes(db: Queryable, organizationId: string) {
  return db('teams as t')
    .where('t.organization_id', organizationId)
    .select('t.id', 't.slug', 't.name', memberCount(db).as('members'));
}

/** The ids of a user's teams in the organization, as a subquery other modules' queries embed (grants by team). */
export function teamIdsOfUser(db: Queryable, organizationId: string, userId: string) {
  return db('team_members').select('team_id').where({ organization_id: organizationId, user_id: userId });
}
