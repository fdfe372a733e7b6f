import type { Db } from '../db/knex';
import { countPendingInvitations } from '../invitations/invitation-repository';
import { countMembersByRole, listPrivilegedMembers } from '../orgs/membership-repository';
import { findOrganizationById } from '../orgs/org-repository';
import { countGrantsBy, grantCountOfTeam } from '../permissions/grant-repository';
import { teamSizes } from '../teams/team-repository';
import { NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { ORG_ROLES, type OrgRole } from '../iam/principal';

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

interface TeamCountRow {
  id: string;
  slug: string;
  name: string;
  members: string;
  grants: string;
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
  const roleRows = await countMembersByRole(db, orgId);
  const byRole = Object.fromEntries(ORG_ROLES.map((r) => [r, 0])) as Record<OrgRole, number>;
  for (const [role, n] of Object.entries(counts(roleRows))) byRole[role as OrgRole] = n;
  const privileged = await listPrivilegedMembers(db, orgId, CAP);
  const teams = (await db
    .from(teamSizes(db, orgId).as('t'))
    .orderBy('t.slug')
    .limit(CAP)
    .select('t.id', 't.slug', 't.name', 't.members', grantCountOfTeam(db, 't.id').as('grants'))) as TeamCountRow[];
  const byResourceType = counts(await countGrantsBy(db, orgId, 'resource_type'));
  const pending = await countPendingInvitations(db, orgId);
  return {
    organization: { id: org.id, slug: org.slug, name: org.name, plan: org.plan },
    members: { total: Object.values(byRole).reduce((a, b) => a + b, 0), byRole },
    privileged,
    teams: teams.map((t) => ({ ...t, members: Number(t.members), grants: Number(t.grants) })),
    grants: {
      total: Object.values(byResourceType).reduce((a, b) => a + b, 0),
      byResourceType,
      byRole: counts(await countGrantsBy(db, orgId, 'role')),
    },
    pendingInvitations: pending,
    generatedAt: new Date().toISOString(),
  };
}
