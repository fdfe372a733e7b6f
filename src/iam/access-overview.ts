import type { Db } from '../db/knex';
import { findOrganizationById } from '../orgs/org-repository';
import { NotFound } from '../errors';
import type { OrgCaller } from './caller';
import { ORG_ROLES, type OrgRole } from './principal';

export interface AccessOverview {
  organization: { id: string; slug: string; name: string; plan: string };
  members: { total: number; byRole: Record<OrgRole, number> };
  /** Owners and admins by name: the people an access review looks at first. */
  privileged: { userId: string; email: string; role: OrgRole }[];
  teams: { id: string; slug: string; name: string; members: number; grants: number }[];
  grants: { total: number; byResourceType: Record<string, number>; byRole: Record<string, number> };
  pendingInvitations: number;
  generatedAt: string;
}

/** Lists are capped: an overview is a summary, the paginated routes hold the details. */
const CAP = 200;

function counts(rows: { key: string; n: string | number }[]): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
}

/** The organization's access at a glance, for administrators (GET /api/v2/iam/access-overview). */
export async function accessOverview(db: Db, caller: OrgCaller): Promise<AccessOverview> {
  const orgId = caller.organizationId;
  const org = await findOrganizationById(db, orgId);
  if (!org) throw new NotFound('organization not found');
  const roleRows = (await db('memberships')
    .where({ organization_id: orgId })
    .groupBy('role')
    .select('role as key', db.raw('count(*) as n'))) as { key: string; n: string }[];
  const byRole = Object.fromEntries(ORG_ROLES.map((r) => [r, 0])) as Record<OrgRole, number>;
  for (const [role, n] of Object.entries(counts(roleRows))) byRole[role as OrgRole] = n;
  const privileged = (await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', orgId)
    .whereIn('m.role', ['owner', 'admin'])
    .orderBy([{ column: 'm.role', order: 'desc' }, 'u.email'])
    .limit(CAP)
    .select('m.user_id as userId', 'u.email', 'm.role')) as AccessOverview['privileged'];
  const teams = (await db('teams as t')
    .where('t.organization_id', orgId)
    .orderBy('t.slug')
    .limit(CAP)
    .select(
      't.id',
      't.slug',
      't.name',
      db('team_members as tm').count('*').where('tm.team_id', db.ref('t.id')).as('members'),
      db('resource_grants as g').count('*').where('g.team_id', db.ref('t.id')).as('grants'),
    )) as { id: string; slug: string; name: string; members: string; grants: string }[];
  const grantsBy = (column: string) =>
    db('resource_grants')
      .where({ organization_id: orgId })
      .groupBy(column)
      .select(`${column} as key`, db.raw('count(*) as n')) as Promise<{ key: string; n: string }[]>;
  const byResourceType = counts(await grantsBy('resource_type'));
  const pending = (await db('invitations')
    .where({ organization_id: orgId, status: 'pending' })
    .where('expires_at', '>', db.fn.now())
    .count<{ n: string }>('* as n')
    .first()) as { n: string } | undefined;
  return {
    organization: { id: org.id, slug: org.slug, name: org.name, plan: org.plan },
    members: { total: Object.values(byRole).reduce((a, b) => a + b, 0), byRole },
    privileged,
    teams: teams.map((t) => ({ ...t, members: Number(t.members), grants: Number(t.grants) })),
    grants: {
      total: Object.values(byResourceType).reduce((a, b) => a + b, 0),
      byResourceType,
      byRole: counts(await grantsBy('role')),
    },
    pendingInvitations: Number(pending?.n ?? 0),
    generatedAt: new Date().toISOString(),
  };
}
