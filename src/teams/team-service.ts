import { NotFound } from '../errors';
import { isUuid } from '../db/uuid';
import { type OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import { findMember } from '../orgs/membership-repository';
import type { Page, PageRequest } from '../db/pagination';
import {
  deleteTeam,
  deleteTeamMember,
  findTeam,
  findTeamMember,
  insertTeam,
  insertTeamMember,
  listTeamMembers,
  listTeams,
  updateTeam,
  type Team,
  type TeamMember,
} from './team-repository';

export type TeamService = ReturnType<typeof createTeamService>;

export function createTeamService(deps: OrgDomainDeps) {
  const { db } = deps;

  const {
    lookup: teamOf,
    record,
    found,
  } = orgResource(deps, { table: 'teams', resourceType: 'team', category: 'member_management' }, findTeam);

  return {
    list: (caller: OrgCaller, page: PageRequest): Promise<Page<Team>> => listTeams(db, caller.organizationId, page),

    get: (caller: OrgCaller, id: string) => teamOf(caller, id),

    create(caller: OrgCaller, input: { slug: string; name: string; description?: string }): Promise<Team> {
      return db.transaction(async (trx) => {
        const team = await insertTeam(trx, caller.organizationId, {
          slug: input.slug,
          name: input.name,
          description: input.description ?? '',
        });
        await record(trx, caller, 'team.create', team, { name: team.name });
        return team;
      });
    },

    /** The lookup runs in the transaction of the change: a team deleted meanwhile answers 404 and audits nothing. */
    update(caller: OrgCaller, id: string, changes: { name?: string; description?: string }): Promise<Team> {
      return db.transaction(async (trx) => {
        const team = await teamOf(caller, id, trx);
        found(await updateTeam(trx, caller.organizationId, team.id, changes));
        await record(trx, caller, 'team.update', team, { changes });
        return (await findTeam(trx, caller.organizationId, team.id)) ?? team;
      });
    },

    delete(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const team = await teamOf(caller, id, trx);
        found(await deleteTeam(trx, caller.organizationId, team.id));
        await record(trx, caller, 'team.delete', team, { name: team.name, members: team.memberCount });
      });
    },

    async listMembers(caller: OrgCaller, id: string, page: PageRequest): Promise<Page<TeamMember>> {
      const team = await teamOf(caller, id);
      return listTeamMembers(db, caller.organizationId, team.id, page);
    },

    /** Only members of the organization can join its teams (an unknown or foreign user answers 404). */
    async addMember(caller: OrgCaller, id: string, userId: string): Promise<TeamMember> {
      const team = await teamOf(caller, id);
      const member = isUuid(userId) ? await findMember(db, caller.organizationId, userId) : null;
      if (!member) throw new NotFound('member not found');
      return db.transaction(async (trx) => {
        await insertTeamMember(trx, caller.organizationId, team.id, member.userId);
        await record(trx, caller, 'team.member.add', team, { userId: member.userId, email: member.email });
        const added = await findTeamMember(trx, caller.organizationId, team.id, member.userId);
        if (!added) throw new Error('team member vanished');
        return added;
      });
    },

    async removeMember(caller: OrgCaller, id: string, userId: string): Promise<void> {
      const team = await teamOf(caller, id);
      await db.transaction(async (trx) => {
        const removed = isUuid(userId) ? await deleteTeamMember(trx, caller.organizationId, team.id, userId) : 0;
        if (removed === 0) throw new NotFound('team member not found');
        await record(trx, caller, 'team.member.remove', team, { userId });
      });
    },
  };
}
