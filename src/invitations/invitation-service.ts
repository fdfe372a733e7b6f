import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Conflict, Forbidden, NotFound } from '../errors';
import { auditActor, holderOf, orgEntry, requireUser, uuidKey, type Caller, type OrgCaller } from '../iam/caller';
import { assertMayConfer } from '../iam/conferred-role';
import { scopedLookup, type OrgDomainDeps } from '../iam/cross-org';
import type { OrgRole } from '../iam/principal';
import type { Logger } from '../logging/logger';
import { errorFields } from '../logging/logger';
import type { SecretBox } from '../identity/mfa/secret-box';
import { canonicalEmail } from '../users/email-address';
import { findUserById } from '../users/user-repository';
import { accountKey, type RateLimiter } from '../rate-limit/fixed-window-limiter';
import { resolveActiveOrg } from '../orgs/active-org';
import { findMemberByEmail } from '../orgs/membership-repository';
import { findOrganizationById } from '../orgs/org-repository';
import type { Page, PageRequest } from '../db/pagination';
import { SEARCH_ATTRIBUTES } from '../temporal/definitions';
import {
  acceptInvitationUpdate,
  reissueInvitationUpdate,
  revokeInvitationUpdate,
  type InvitationStatus,
  type InvitationWorkflowInput,
  invitationWorkflowId,
  invitationWorkflowType,
} from './invitation-workflow-contract';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { reconcileRows } from '../temporal/workflow-rows';
import { endedInvitation, invitationUpdateError } from './invitation-errors';
import {
  effectiveStatus,
  findInvitation,
  findInvitationByTokenHash,
  findPendingByEmail,
  insertInvitation,
  listInvitations,
  listPendingSentBy,
  pendingWorkflowIds,
  listUnstartedInvitations,
  markWorkflowStarted,
  rowToInvitation,
  type Invitation,
  type InvitationRow,
} from './invitation-repository';
import {
  hashInvitationToken,
  isInvitationTokenShape,
  newInvitationToken,
  sealInvitationToken,
} from './invitation-token';

export interface InvitationServiceDeps extends OrgDomainDeps {
  temporal: Client;
  workflows: WorkflowStarter;
  secrets: SecretBox;
  log: Logger;
  limiter: RateLimiter;
  /** Sends and reissues per organization and per invited address within `rateWindowMs` (429 beyond). */
  rates: { perOrganization: number; perAddress: number };
  rateWindowMs: number;
  ttlMs: number;
  publicUrl: string;
}

export interface SentInvitation {
  invitation: Invitation;
  /** False when an identical pending invitation already existed (a retried send): nothing new was created. */
  created: boolean;
}

export interface InvitationLookup {
  organization: { slug: string; name: string };
  email: string;
  role: OrgRole;
  status: 'pending';
  expiresAt: string;
}

export type InvitationService = ReturnType<typeof createInvitationService>;

export function createInvitationService(deps: InvitationServiceDeps) {
  const { db, audit, temporal } = deps;

  /**
   * Starts the workflow of a pending row and records that it runs. USE_EXISTING makes a retried call (or the
   * reconciler racing the sender) find the running workflow instead of a second one; a pending row whose workflow
   * was never started (a crash after the row's commit) gets its run, which mails the sealed token.
   */
  async function ensureWorkflow(row: InvitationRow): Promise<void> {
    const input: InvitationWorkflowInput = {
      invitationId: row.id,
      organizationId: row.organization_id,
      email: row.email,
      tokenHash: row.token_hash,
      expiresAt: row.expires_at.toISOString(),
      ttlMs: deps.ttlMs,
    };
    await deps.workflows.start(invitationWorkflowType, {
      workflowId: row.workflow_id,
      args: [input],
      labels: { organizationId: row.organization_id },
      searchAttributes: [{ key: SEARCH_ATTRIBUTES.resourceStatus, value: 'pending' }],
      // No personal data in what every Temporal UI reader sees: the invitation's id, not the invitee's address.
      summary: `invitation ${row.id} as ${row.role}, expires ${row.expires_at.toISOString()}`,
    });
    await markWorkflowStarted(db, row.id);
  }

  /** Every send and reissue mails someone: counted per organization and per address before anything changes. */
  function countMail(organizationId: string, email: string): Promise<void> {
    return deps.limiter.hit(
      [
        { key: `invite:org:${organizationId}`, limit: deps.rates.perOrganization },
        { key: accountKey('invite', email), limit: deps.rates.perAddress },
      ],
      deps.rateWindowMs,
    );
  }

  const invitationOf = scopedLookup(
    deps,
    { table: 'invitations', column: 'id', resourceType: 'invitation', category: 'member_management', parse: uuidKey },
    findInvitation,
  );

  function requirePending(row: InvitationRow): void {
    const status = effectiveStatus(row);
    if (status !== 'pending') throw new Conflict(`invitation is ${status}`);
  }

  async function update<T>(
    row: InvitationRow,
    call: (handle: ReturnType<Client['workflow']['getHandle']>) => Promise<T>,
  ) {
    try {
      return await call(temporal.workflow.getHandle(row.workflow_id));
    } catch (err) {
      throw invitationUpdateError(err);
    }
  }

  async function pendingRowForToken(token: string): Promise<InvitationRow> {
    const row = isInvitationTokenShape(token) ? await findInvitationByTokenHash(db, hashInvitationToken(token)) : null;
    if (!row) throw new NotFound('invitation not found');
    const status = effectiveStatus(row);
    if (status !== 'pending') throw endedInvitation(status);
    return row;
  }

  return {
    async send(caller: OrgCaller, slug: string, input: { email: string; role: OrgRole }): Promise<SentInvitation> {
      const org = await resolveActiveOrg(deps, caller, slug);
      if (input.role === 'owner' && caller.role !== 'owner') throw new Forbidden('only an owner can invite an owner');
      assertMayConfer(holderOf(caller), input.role, 'an invitation');
      const email = canonicalEmail(input.email);
      if (await findMemberByEmail(db, org.id, email)) {
        throw new Conflict('this user is already a member of the organization');
      }
      const existing = await findPendingByEmail(db, org.id, email);
      if (existing && effectiveStatus(existing) === 'pending') {
        if (existing.role !== input.role) throw new Conflict('a pending invitation for this email already exists');
        await ensureWorkflow(existing);
        return { invitation: rowToInvitation(existing), created: false };
      }
      await countMail(org.id, email);
      const id = randomUUID();
      const token = newInvitationToken();
      const sealedToken = sealInvitationToken(deps.secrets, token, id);
      const row = await db.transaction(async (trx) => {
        // A pending row past its deadline whose timer never ran (workflow lost) makes room for the new one.
        if (existing) {
          await trx('invitations').where({ id: existing.id, status: 'pending' }).update({ status: 'expired' });
          await audit.append(trx, {
            organizationId: org.id,
            actorType: 'system',
            actor: 'invitation-service',
            action: 'invitation.expire',
            category: 'member_management',
            resourceType: 'invitation',
            resourceId: existing.id,
            workflowId: existing.workflow_id,
            details: { email: existing.email, role: existing.role, reason: 'deadline passed without its timer' },
          });
        }
        const inserted = await insertInvitation(trx, {
          id,
          organizationId: org.id,
          email,
          role: input.role,
          tokenHash: hashInvitationToken(token),
          expiresAt: new Date(Date.now() + deps.ttlMs),
          invitedBy: caller.principal.userId,
          invitedByTokenId: caller.principal.kind === 'service_account' ? caller.principal.credentialId : null,
          workflowId: invitationWorkflowId(id),
          sealedToken,
        });
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'invitation.create',
            category: 'member_management',
            resourceType: 'invitation',
            resourceId: id,
            workflowId: inserted.workflow_id,
            details: { email, role: input.role, expiresAt: inserted.expires_at.toISOString() },
          }),
        );
        return inserted;
      });
      // A crash here leaves a pending row with no workflow: the reconciler starts it (and its first mail).
      await ensureWorkflow(row);
      return { invitation: rowToInvitation(row), created: true };
    },

    async list(caller: OrgCaller, slug: string, status: InvitationStatus | undefined, page: PageRequest) {
      const org = await resolveActiveOrg(deps, caller, slug);
      return listInvitations(db, org.id, status, page) as Promise<Page<Invitation>>;
    },

    async get(caller: OrgCaller, slug: string, id: string): Promise<Invitation> {
      await resolveActiveOrg(deps, caller, slug);
      return rowToInvitation(await invitationOf(caller, id));
    },

    /** New token, expiry restarted by the workflow (its timer resets), mailed by the workflow before it answers. */
    async reissue(caller: OrgCaller, slug: string, id: string): Promise<SentInvitation> {
      const org = await resolveActiveOrg(deps, caller, slug);
      const row = await invitationOf(caller, id);
      requirePending(row);
      await countMail(org.id, row.email);
      const token = newInvitationToken();
      const request = {
        tokenHash: hashInvitationToken(token),
        sealedToken: sealInvitationToken(deps.secrets, token, row.id),
        actor: auditActor(caller),
      };
      await update(row, (h) => h.executeUpdate(reissueInvitationUpdate, { args: [request] }));
      const fresh = (await findInvitation(db, org.id, row.id)) ?? row;
      return { invitation: rowToInvitation(fresh), created: false };
    },

    async revoke(caller: OrgCaller, slug: string, id: string): Promise<Invitation> {
      const org = await resolveActiveOrg(deps, caller, slug);
      const row = await invitationOf(caller, id);
      requirePending(row);
      await update(row, (h) => h.executeUpdate(revokeInvitationUpdate, { args: [{ actor: auditActor(caller) }] }));
      return rowToInvitation((await findInvitation(db, org.id, row.id)) ?? row);
    },

    /** Public: whoever holds the token sees what it is for, and nothing once it has ended. */
    async lookup(token: string): Promise<InvitationLookup> {
      const row = await pendingRowForToken(token);
      const org = await findOrganizationById(db, row.organization_id);
      if (!org) throw new NotFound('invitation not found');
      return {
        organization: { slug: org.slug, name: org.name },
        email: row.email,
        role: row.role,
        status: 'pending',
        expiresAt: row.expires_at.toISOString(),
      };
    },

    /**
     * The signed-in user joins when their (verified) email is the invited one. The workflow's validator checks the
     * same again, so a reissue or revoke racing this call cannot be bypassed.
     */
    async accept(caller: Caller, token: string) {
      const { userId } = requireUser(caller);
      const row = await pendingRowForToken(token);
      const user = await findUserById(db, userId);
      if (!user) throw new NotFound('user not found');
      if (user.email.toLowerCase() !== row.email.toLowerCase()) throw new Forbidden('invitation email mismatch');
      if (!user.emailVerified) {
        throw new Forbidden('verify your email address before accepting an invitation');
      }
      const result = await update(row, (h) =>
        h.executeUpdate(acceptInvitationUpdate, {
          args: [{ tokenHash: row.token_hash, userId, email: user.email, actor: auditActor(caller) }],
        }),
      );
      const org = await findOrganizationById(db, result.organizationId);
      return {
        organization: org ? { id: org.id, slug: org.slug, name: org.name } : { id: result.organizationId },
        userId,
        role: result.role,
      };
    },

    /**
     * Starts the workflows that pending rows are missing (the sending process died between the row's commit and
     * the start). Run by every worker process at start and periodically; returns how many rows it started.
     */
    async reconcile(limit = 100): Promise<number> {
      // No grace: a pending row is started once, and its first mail is the workflow's own idempotent activity.
      return reconcileRows((before, max) => listUnstartedInvitations(db, before, max), ensureWorkflow, limit, 0);
    },

    async revokeSentBy(caller: OrgCaller, organizationId: string, userId: string, reason: string): Promise<number> {
      const rows = await listPendingSentBy(db, organizationId, userId);
      let revoked = 0;
      for (const row of rows) {
        try {
          await update(row, (h) =>
            h.executeUpdate(revokeInvitationUpdate, { args: [{ actor: auditActor(caller), reason }] }),
          );
          revoked += 1;
        } catch (err) {
          // Ended meanwhile (accepted, expired): nothing left to revoke. Anything else: the accept check still holds.
          deps.log.warn('invitation of a lost inviter not revoked', { invitationId: row.id, ...errorFields(err) });
        }
      }
      return revoked;
    },

    pendingWorkflowIds,

    /** Ends the workflows of invitations whose organization was deleted (best effort: their rows are gone). */
    async endWorkflows(workflowIds: string[]): Promise<void> {
      for (const workflowId of workflowIds) {
        try {
          await temporal.workflow.getHandle(workflowId).terminate('organization deleted');
        } catch (err) {
          deps.log.warn('invitation workflow not terminated', { workflowId, ...errorFields(err) });
        }
      }
    },
  };
}
