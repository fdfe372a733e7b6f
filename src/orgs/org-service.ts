import type { Queryable, Tx } from '../db/knex';
import { Conflict, Forbidden, InvalidInput, NotFound, TooManyRequests } from '../errors';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';
import { isUuid } from '../db/uuid';
import { auditActor, holderOf, orgEntry, requireUser, type Caller, type OrgCaller } from '../iam/caller';
import { ACTION_ROLES } from '../iam/action-roles';
import { assertMayConfer } from '../iam/conferred-role';
import type { OrgRole } from '../iam/principal';
import { atLeast, minimumRole } from '../iam/role-authorizer';
import type { OrgDomainDeps } from '../iam/cross-org';
import { resolveActiveOrg } from './active-org';
import {
  countOwners,
  deleteMembership,
  findMember,
  listMembers,
  listOrganizationsOf,
  setMemberRole,
  type Member,
  type MyOrganization,
} from './membership-repository';
import {
  SLUG_PATTERN,
  deleteOrganization,
  insertMembership,
  insertOrganization,
  lockOrganization,
  updateOrganizationName,
  type Organization,
} from './org-repository';
import type { Page, PageRequest } from '../db/pagination';

export interface OrgServiceDeps extends OrgDomainDeps {
  /** The invitation workflows this service ends: those of a deleted organization, those a lost inviter sent. */
  invitations: InvitationPort;
  limiter: RateLimiter;
  /** Organizations each user may create per window: each one multiplies the per-organization limits. */
  createRate: { perUser: number; windowMs: number };
}

/** What membership changes need from invitations (src/invitations implements it; orgs never touch its rows). */
export interface InvitationPort {
  /** The workflows of the organization's pending invitations, read in the caller's transaction. */
  pendingWorkflowIds(db: Queryable, organizationId: string): Promise<string[]>;
  /** Ends the workflows of a deleted organization's invitations (their rows are gone with it). */
  endWorkflows(workflowIds: string[]): Promise<void>;
  /** Revokes, through their workflows and audited, the pending invitations `userId` sent in the organization. */
  revokeSentBy(caller: OrgCaller, organizationId: string, userId: string, reason: string): Promise<number>;
}

export type OrgService = ReturnType<typeof createOrgService>;

export function createOrgService(deps: OrgServiceDeps) {
  const { db, audit } = deps;

  /**
   * The caller's role as it is under the organization lock: a demotion or removal committed while this request
   * waited for the lock decides, not the role read when the request started. Credentials without a user (service
   * accounts, later) keep the role the chain gave them.
   */
  async function lockedCallerRole(trx: Tx, caller: OrgCaller, organizationId: string, action: string) {
    const userId = caller.principal.userId;
    if (userId === null) return caller.role;
    const self = await findMember(trx, organizationId, userId);
    if (!self) throw new Forbidden('you are not a member of the active organization');
    const needed = minimumRole(ACTION_ROLES, action);
    if (needed === null || !atLeast(self.role, needed)) {
      throw new Forbidden(`this action requires the ${needed ?? 'owner'} role`);
    }
    return self.role;
  }

  /**
   * Locks the organization for a membership change, re-reads the caller's role under the lock, and finds the target
   * member, or 404. The returned caller carries the role as it is now.
   */
  async function lockedMember(trx: Tx, caller: OrgCaller, slug: string, userId: string, action: string) {
    const org = await resolveActiveOrg({ db: trx, misses: deps.misses }, caller, slug);
    await lockOrganization(trx, org.id);
    const current: OrgCaller = { ...caller, role: await lockedCallerRole(trx, caller, org.id, action) };
    const member = isUuid(userId) ? await findMember(trx, org.id, userId) : null;
    if (!member) throw new NotFound('member not found');
    return { org, member, caller: current };
  }

  /** Owners are managed by owners only: an admin can neither promote to nor act on the owner role. */
  function checkOwnerRule(caller: OrgCaller, target: Member, newRole: OrgRole | null): void {
    if (caller.role === 'owner') return;
    if (target.role === 'owner') throw new Forbidden('only an owner can change or remove an owner');
    if (newRole === 'owner') throw new Forbidden('only an owner can grant the owner role');
  }

  async function keepsAnOwner(trx: Tx, organizationId: string, target: Member, newRole: OrgRole | null) {
    if (target.role !== 'owner' || newRole === 'owner') return;
    if ((await countOwners(trx, organizationId)) <= 1) {
      throw new Conflict('an organization must keep at least one owner');
    }
  }

  async function countCreation(userId: string): Promise<void> {
    const { perUser, windowMs } = deps.createRate;
    try {
      await deps.limiter.hit([{ key: `org-create:user:${userId}`, limit: perUser }], windowMs);
    } catch (err) {
      if (!(err instanceof TooManyRequests)) throw err;
      const message = `you may create at most ${perUser} organizations per ${Math.max(1, Math.round(windowMs / 3_600_000))} h`;
      throw new TooManyRequests(message, Number(err.headers['Retry-After'] ?? 1));
    }
  }

  return {
    /** Any signed-in user may create an organization and becomes its first owner. */
    async create(caller: Caller, input: { slug: string; name: string }): Promise<MyOrganization> {
      const user = requireUser(caller);
      if (!SLUG_PATTERN.test(input.slug)) throw new InvalidInput('slug must be lowercase letters, digits and dashes');
      await countCreation(user.userId);
      return db.transaction(async (trx) => {
        const org = await insertOrganization(trx, { slug: input.slug, name: input.name, plan: 'free' });
        await insertMembership(trx, org.id, user.userId, 'owner');
        await audit.append(trx, {
          organizationId: org.id,
          ...auditActor(caller),
          action: 'organization.create',
          category: 'configuration',
          resourceType: 'organization',
          resourceId: org.id,
          details: { slug: org.slug, name: org.name, plan: org.plan },
        });
        return { ...org, role: 'owner' as const };
      });
    },

    listMine(caller: Caller, page: PageRequest): Promise<Page<MyOrganization>> {
      return listOrganizationsOf(db, requireUser(caller).userId, page);
    },

    async get(caller: OrgCaller, slug: string): Promise<MyOrganization> {
      const org = await resolveActiveOrg(deps, caller, slug);
      return { ...org, role: caller.role };
    },

    async rename(caller: OrgCaller, slug: string, name: string): Promise<Organization> {
      return db.transaction(async (trx) => {
        const org = await resolveActiveOrg(deps, caller, slug);
        const updated = await updateOrganizationName(trx, org.id, name);
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'organization.update',
            category: 'configuration',
            resourceType: 'organization',
            resourceId: org.id,
            details: { from: { name: org.name }, to: { name } },
          }),
        );
        return updated;
      });
    },

    /** The slug must be repeated in the body: deleting an organization cannot be undone. */
    async delete(caller: OrgCaller, slug: string, confirm: string): Promise<void> {
      const org = await resolveActiveOrg(deps, caller, slug);
      if (confirm !== org.slug) throw new InvalidInput('confirm must repeat the organization slug');
      const workflowIds = await db.transaction(async (trx) => {
        await lockOrganization(trx, org.id);
        const pending = await deps.invitations.pendingWorkflowIds(trx, org.id);
        // The audit entry stays in the organization's chain after the organization row is gone.
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'organization.delete',
            category: 'configuration',
            resourceType: 'organization',
            resourceId: org.id,
            details: { slug: org.slug, name: org.name, pendingInvitations: pending.length },
          }),
        );
        await deleteOrganization(trx, org.id);
        return pending;
      });
      await deps.invitations.endWorkflows(workflowIds);
    },

    async listMembers(caller: OrgCaller, slug: string, page: PageRequest): Promise<Page<Member>> {
      const org = await resolveActiveOrg(deps, caller, slug);
      return listMembers(db, org.id, page);
    },

    /** Lowering an inviter below admin revokes the invitations they sent: no way back in through them. */
    async changeRole(caller: OrgCaller, slug: string, userId: string, role: OrgRole): Promise<Member> {
      const changed = await db.transaction(async (trx) => {
        const locked = await lockedMember(trx, caller, slug, userId, 'org.members.update');
        const { org, member } = locked;
        if (member.role === role) return { ...member, from: role, organizationId: org.id };
        checkOwnerRule(locked.caller, member, role);
        assertMayConfer(holderOf(locked.caller), role, 'a member');
        await keepsAnOwner(trx, org.id, member, role);
        await setMemberRole(trx, org.id, member.userId, role);
        // `member.role.change` is also the name of the Security notification event of the spec.
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'member.role.change',
            category: 'role_changes',
            resourceType: 'member',
            resourceId: member.userId,
            details: { email: member.email, from: member.role, to: role },
          }),
        );
        return { ...member, role, from: member.role, organizationId: org.id };
      });
      const { from, organizationId, ...member } = changed;
      if (atLeast(from, 'admin') && !atLeast(role, 'admin')) {
        await deps.invitations.revokeSentBy(caller, organizationId, userId, `inviter's role lowered to ${role}`);
      }
      return member;
    },

    async removeMember(caller: OrgCaller, slug: string, userId: string): Promise<void> {
      const organizationId = await db.transaction(async (trx) => {
        const locked = await lockedMember(trx, caller, slug, userId, 'org.members.remove');
        const { org, member } = locked;
        checkOwnerRule(locked.caller, member, null);
        await keepsAnOwner(trx, org.id, member, null);
        await deleteMembership(trx, org.id, member.userId);
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'member.remove',
            category: 'member_management',
            resourceType: 'member',
            resourceId: member.userId,
            details: { email: member.email, role: member.role },
          }),
        );
        return org.id;
      });
      await deps.invitations.revokeSentBy(caller, organizationId, userId, 'inviter removed from the organization');
    },
  };
}
