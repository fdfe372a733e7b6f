import { teamIdsOfUser } from '../teams/team-repository';
import type { Knex } from 'knex';
import type { Queryable } from '../db/knex';
import type { OrgRole } from '../iam/principal';
import type { ResourceRef, ResourceType } from '../iam/resource-refs';
import { higherRole } from '../iam/role-authorizer';
import { deleteOwned, insertOne, updateOwned } from '../db/owned-rows';
import { keysetPage, type PageRequest } from '../db/pagination';

export const GRANT_ROLES = ['admin', 'member', 'viewer'] as const;
export type GrantRole = (typeof GRANT_ROLES)[number];
export type SubjectType = 'user' | 'team' | 'service_account';

/** The column holding each subject type's id. */
const SUBJECT_COLUMN = { user: 'user_id', team: 'team_id', service_account: 'service_account_id' } as const;

export interface Grant {
  id: string;
  subjectType: SubjectType;
  subjectId: string;
  resourceType: ResourceType;
  resourceId: string;
  role: GrantRole;
  createdBy: string | null;
  createdAt: string;
}

interface GrantRow {
  id: string;
  subject_type: SubjectType;
  user_id: string | null;
  team_id: string | null;
  service_account_id: string | null;
  resource_type: ResourceType;
  resource_id: string;
  role: GrantRole;
  created_by: string | null;
  created_at: Date;
}

const GRANT_COLUMNS = [
  'g.id',
  'g.subject_type',
  'g.user_id',
  'g.team_id',
  'g.service_account_id',
  'g.resource_type',
  'g.resource_id',
  'g.role',
  'g.created_by',
  'g.created_at',
] as const;

function rowToGrant(row: GrantRow): Grant {
  return {
    id: row.id,
    subjectType: row.subject_type,
    subjectId: row[SUBJECT_COLUMN[row.subject_type]] ?? '',
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    role: row.role,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

function grants(db: Queryable, organizationId: string) {
  return db('resource_grants as g').where('g.organization_id', organizationId).select(GRANT_COLUMNS);
}

export interface NewGrant {
  subjectType: SubjectType;
  subjectId: string;
  resourceType: ResourceType;
  resourceId: string;
  role: GrantRole;
}

/** A member removed or a team deleted while this runs answers 404 like a missing subject. */
export async function insertGrant(db: Queryable, organizationId: string, input: NewGrant, createdBy: string | null) {
  const row = await insertOne<GrantRow>(
    db('resource_grants')
      .insert({
        organization_id: organizationId,
        subject_type: input.subjectType,
        [SUBJECT_COLUMN[input.subjectType]]: input.subjectId,
        resource_type: input.resourceType,
        resource_id: input.resourceId,
        role: input.role,
        created_by: createdBy,
      })
      .returning(GRANT_COLUMNS.map((c) => c.slice(2))),
    'this subject already has a grant on this resource',
    { user: 'member not found', team: 'team not found', service_account: 'service account not found' }[
      input.subjectType
    ],
  );
  return rowToGrant(row);
}

export async function findGrant(db: Queryable, organizationId: string, id: string): Promise<Grant | null> {
  const row = (await grants(db, organizationId).where('g.id', id).first()) as GrantRow | undefined;
  return row ? rowToGrant(row) : null;
}

export interface GrantFilters {
  subjectType?: SubjectType;
  subjectId?: string;
  resourceType?: ResourceType;
  resourceId?: string;
}

function applyFilters(query: Knex.QueryBuilder, f: GrantFilters): Knex.QueryBuilder {
  if (f.subjectType) void query.where('g.subject_type', f.subjectType);
  if (f.subjectId) {
    void query.where(
      (b) =>
        void b
          .where('g.user_id', f.subjectId)
          .orWhere('g.team_id', f.subjectId)
          .orWhere('g.service_account_id', f.subjectId),
    );
  }
  if (f.resourceType) void query.where('g.resource_type', f.resourceType);
  if (f.resourceId) void query.where('g.resource_id', f.resourceId);
  return query;
}

export function listGrants(db: Queryable, organizationId: string, filters: GrantFilters, page: PageRequest) {
  return keysetPage<GrantRow, Grant>(
    applyFilters(grants(db, organizationId), filters),
    ['g.resource_id', 'g.id'],
    page,
    (r) => [r.resource_id, r.id],
    rowToGrant,
  );
}

/** False when the grant is gone (revoked meanwhile). */
/** The organization's grants counted by `column` (`key`, `n` rows), for the access overview. */
export function countGrantsBy(db: Queryable, organizationId: string, column: 'resource_type' | 'role') {
  return db('resource_grants')
    .where({ organization_id: organizationId })
    .groupBy(column)
    .select(`${column} as key`, db.raw('count(*) as n')) as Promise<{ key: string; n: string }[]>;
}

/** How many grants name the team in `teamIdColumn`, as a correlated subquery another module's query selects. */
export function grantCountOfTeam(db: Queryable, teamIdColumn: string) {
  return db('resource_grants as g').count('*').where('g.team_id', db.ref(teamIdColumn));
}

export function setGrantRole(db: Queryable, organizationId: string, id: string, role: GrantRole): Promise<boolean> {
  return updateOwned(db, 'resource_grants', organizationId, id, { role });
}

/** False when the grant was already gone. */
export function deleteGrant(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return deleteOwned(db, 'resource_grants', organizationId, id);
}

/** Grants reaching a user directly or through any of the user's teams in the organization. */
function grantsReaching(db: Queryable, organizationId: string, userId: string) {
  return grants(db, organizationId).where((b) => {
    void b.where('g.user_id', userId).orWhereIn('g.team_id', teamIdsOfUser(db, organizationId, userId));
  });
}

async function highestOf(query: Knex.QueryBuilder, refs: readonly ResourceRef[]): Promise<OrgRole | null> {
  if (refs.length === 0) return null;
  const rows = (await query.where((b) => {
    for (const ref of refs) void b.orWhere({ 'g.resource_type': ref.type, 'g.resource_id': ref.id });
  })) as GrantRow[];
  return rows.reduce<OrgRole | null>((best, row) => higherRole(best, row.role), null);
}

/** The strongest role any grant gives the user on any of the resources (null when none does). */
export function highestGrantRole(db: Queryable, organizationId: string, userId: string, refs: readonly ResourceRef[]) {
  return highestOf(grantsReaching(db, organizationId, userId), refs);
}

/** The same for a service account: only grants naming the account itself reach it. */
export function highestServiceAccountGrantRole(
  db: Queryable,
  organizationId: string,
  serviceAccountId: string,
  refs: readonly ResourceRef[],
) {
  return highestOf(grants(db, organizationId).where('g.service_account_id', serviceAccountId), refs);
}

/** Every grant reaching the user, for the effective-permissions view; bounded by the organization's grant count. */
export async function grantsOfUser(db: Queryable, organizationId: string, userId: string): Promise<Grant[]> {
  const rows = (await grantsReaching(db, organizationId, userId)
    .orderBy('g.resource_type')
    .orderBy('g.resource_id')) as GrantRow[];
  return rows.map(rowToGrant);
}
