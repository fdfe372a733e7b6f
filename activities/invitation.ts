import { ApplicationFailure, Context } from '@temporalio/activity';
import type { AuditService } from '../src/audit/audit-service';
import type { AuditEntryInput } from '../src/audit/types';
import type { Db, Tx } from '../src/db/knex';
import type { SecretBox } from '../src/identity/mfa/secret-box';
import { invitationMail } from '../src/invitations/invitation-mail';
import {
  lockInvitation,
  lockInvitationForMail,
  recordInvitationMailed,
  updateInvitation,
  type InvitationRow,
} from '../src/invitations/invitation-repository';
import { openInvitationToken } from '../src/invitations/invitation-token';
import { senderStillHolds } from '../src/invitations/sender-rights';
import type { Mailer } from '../src/mail/mailer';
import { addMembershipIfAbsent, findOrganizationById } from '../src/orgs/org-repository';
import { findUserById } from '../src/users/user-repository';
import {
  INVITATION_FAILURE,
  INVITATION_MAIL_ATTEMPTS,
  type AcceptInvitationRequest,
  type AcceptInvitationResult,
  type InvitationMailOutcome,
  type RevokeInvitationRequest,
  type InvitationStatus,
} from '../src/invitations/invitation-workflow-contract';
import type { AuditActor } from '../src/audit/types';

export interface InvitationActivityDeps {
  db: Db;
  audit: AuditService;
  mailer: Pick<Mailer, 'send'>;
  secrets: SecretBox;
  config: { publicUrl: string };
}

interface Target {
  invitationId: string;
  workflowId: string;
}

function notPending(row: InvitationRow | null): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`invitation is ${row?.status ?? 'gone'}`, INVITATION_FAILURE.notPending);
}

function entry(row: InvitationRow, workflowId: string, actor: AuditActor, action: string): AuditEntryInput {
  return {
    organizationId: row.organization_id,
    userId: actor.userId,
    actorType: actor.actorType,
    actor: actor.actor,
    requestId: actor.requestId,
    action,
    category: 'member_management',
    resourceType: 'invitation',
    resourceId: row.id,
    workflowId,
    details: { email: row.email, role: row.role },
  };
}

const TIMER: AuditActor = { userId: null, actorType: 'system', actor: 'invitation-workflow', requestId: null };

/**
 * Each activity locks the row, checks the transition, changes the row and writes the audit entry in one
 * transaction. Activities run at least once, so each recognises its own earlier committed attempt and returns the
 * same answer without a second change or audit entry.
 */
export function createInvitationActivities({ db, audit, mailer, secrets, config }: InvitationActivityDeps) {
  const transition = <T>(work: (trx: Tx) => Promise<T>) => db.transaction(work);

  return {
    /**
     * Mails the current token once. The row stays locked while the SMTP server takes the message, so concurrent
     * attempts wait; after a crash between the SMTP answer and the commit the retry sends again with the same
     * Message-ID (the one case a copy can arrive twice, and receiving systems recognise it). Failures are retried by
     * Temporal; the last attempt records the error on the row instead, and the invitation stands.
     */
    async mailInvitation(input: Target): Promise<InvitationMailOutcome> {
      return transition(async (trx) => {
        const row = await lockInvitationForMail(trx, input.invitationId);
        if (!row || row.status !== 'pending' || !row.sealed_token) return 'skipped';
        const org = await findOrganizationById(trx, row.organization_id);
        if (!org) return 'skipped';
        const inviter = row.invited_by ? await findUserById(trx, row.invited_by) : null;
        const message = invitationMail({
          to: row.email,
          organizationName: org.name,
          role: row.role,
          inviter: inviter?.email ?? 'An administrator',
          token: openInvitationToken(secrets, row.sealed_token, row.id),
          expiresAt: row.expires_at.toISOString(),
          publicUrl: config.publicUrl,
        });
        try {
          await mailer.send({ ...message, messageId: `<invitation-${row.id}-${row.reissue_count}@delivery-platform>` });
        } catch (err) {
          if (Context.current().info.attempt < INVITATION_MAIL_ATTEMPTS) throw err;
          await updateInvitation(trx, row.id, { mail_error: err instanceof Error ? err.message : String(err) });
          return 'failed';
        }
        await recordInvitationMailed(trx, row.id, row.token_hash);
        return 'sent';
      });
    },

    /** Returns the status the invitation ends with; a row gone with its organization reads as revoked. */
    async expireInvitation(input: Target): Promise<InvitationStatus> {
      return transition(async (trx) => {
        const row = await lockInvitation(trx, input.invitationId);
        if (!row) return 'revoked';
        if (row.status !== 'pending') return row.status;
        await updateInvitation(trx, row.id, { status: 'expired' });
        await audit.append(trx, entry(row, input.workflowId, TIMER, 'invitation.expire'));
        return 'expired';
      });
    },

    async reissueInvitation(
      input: Target & { tokenHash: string; sealedToken: string; expiresAt: string; actor: AuditActor },
    ) {
      await transition(async (trx) => {
        const row = await lockInvitation(trx, input.invitationId);
        if (row?.token_hash === input.tokenHash) return;
        if (!row || row.status !== 'pending') throw notPending(row);
        await updateInvitation(trx, row.id, {
          token_hash: input.tokenHash,
          sealed_token: input.sealedToken,
          mail_error: null,
          expires_at: new Date(input.expiresAt),
          reissue_count: row.reissue_count + 1,
        });
        const audited = entry(row, input.workflowId, input.actor, 'invitation.reissue');
        await audit.append(trx, { ...audited, details: { ...audited.details, expiresAt: input.expiresAt } });
      });
    },

    async revokeInvitation(input: Target & RevokeInvitationRequest): Promise<void> {
      await transition(async (trx) => {
        const row = await lockInvitation(trx, input.invitationId);
        if (row?.status === 'revoked') return;
        if (!row || row.status !== 'pending') throw notPending(row);
        await updateInvitation(trx, row.id, { status: 'revoked' });
        const audited = entry(row, input.workflowId, input.actor, 'invitation.revoke');
        await audit.append(
          trx,
          input.reason ? { ...audited, details: { ...audited.details, reason: input.reason } } : audited,
        );
      });
    },

    /** Joins the user with the invited role; the email check is repeated here against the row itself. */
    async acceptInvitation(input: Target & AcceptInvitationRequest): Promise<AcceptInvitationResult> {
      return transition(async (trx) => {
        const row = await lockInvitation(trx, input.invitationId);
        const result = (r: InvitationRow) => ({
          organizationId: r.organization_id,
          userId: input.userId,
          role: r.role,
        });
        if (row?.status === 'accepted' && row.accepted_by === input.userId) return result(row);
        if (!row || row.status !== 'pending') throw notPending(row);
        if (row.token_hash !== input.tokenHash) {
          throw ApplicationFailure.nonRetryable('invitation token was replaced', INVITATION_FAILURE.tokenSuperseded);
        }
        if (row.email.toLowerCase() !== input.email.toLowerCase()) {
          throw ApplicationFailure.nonRetryable('invitation email mismatch', INVITATION_FAILURE.emailMismatch);
        }
        // The inviter must still be able to invite: a revocation that did not reach this workflow cannot be a way in.
        if (!(await senderStillHolds(trx, row))) {
          throw ApplicationFailure.nonRetryable(
            'invitation is revoked: its sender can no longer invite',
            INVITATION_FAILURE.notPending,
          );
        }
        if (!(await addMembershipIfAbsent(trx, row.organization_id, input.userId, row.role))) {
          throw ApplicationFailure.nonRetryable(
            'already a member of this organization',
            INVITATION_FAILURE.alreadyMember,
          );
        }
        await updateInvitation(trx, row.id, { status: 'accepted', accepted_by: input.userId });
        await audit.append(trx, entry(row, input.workflowId, input.actor, 'invitation.accept'));
        await audit.append(trx, {
          ...entry(row, input.workflowId, input.actor, 'member.add'),
          resourceType: 'member',
          resourceId: input.userId,
          details: { email: row.email, role: row.role, invitationId: row.id },
        });
        return result(row);
      });
    },
  };
}
