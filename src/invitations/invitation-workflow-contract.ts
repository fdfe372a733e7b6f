/**
 * The invitation workflow (workflows/invitation.ts): one workflow `invitation-<id>` per invitation, human actions as
 * Updates. Imported by workflow code, so it stays free of Node built-ins and I/O.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { AuditActor } from '../audit/types';
import { workflowType } from '../temporal/workflow-type';

export function invitationWorkflowId(invitationId: string): string {
  return `invitation-${invitationId}`;
}

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationWorkflowInput {
  invitationId: string;
  organizationId: string;
  /** Compared with the accepting user's email by the accept validator. */
  email: string;
  /** SHA-256 of the current token (never the token itself: history is storage too). */
  tokenHash: string;
  /** ISO instant of the current expiry; reissue moves it by `ttlMs` from the reissue. */
  expiresAt: string;
  ttlMs: number;
}

export interface ReissueInvitationRequest {
  tokenHash: string;
  /** The new token sealed for its mail (ciphertext only: history is storage too). */
  sealedToken: string;
  actor: AuditActor;
}

/** Attempts of the mail activity before it records the failure and lets the invitation stand (reissue mails again). */
export const INVITATION_MAIL_ATTEMPTS = 5;

/** What the mail activity did: sent the current token, found it already sent or the invitation ended, or gave up. */
export type InvitationMailOutcome = 'sent' | 'skipped' | 'failed';
export interface AcceptInvitationRequest {
  tokenHash: string;
  userId: string;
  email: string;
  actor: AuditActor;
}
export interface AcceptInvitationResult {
  organizationId: string;
  userId: string;
  role: string;
}
export interface InvitationState {
  status: InvitationStatus;
  expiresAt: string;
  reissues: number;
}

export const reissueInvitationUpdate = defineUpdate<
  { expiresAt: string; mail: InvitationMailOutcome },
  [ReissueInvitationRequest]
>('reissueInvitation');
/** `reason` is set when the platform revokes on its own account (the inviter lost the right to invite). */
export interface RevokeInvitationRequest {
  actor: AuditActor;
  reason?: string;
}
export const revokeInvitationUpdate = defineUpdate<{ status: InvitationStatus }, [RevokeInvitationRequest]>(
  'revokeInvitation',
);
export const acceptInvitationUpdate = defineUpdate<AcceptInvitationResult, [AcceptInvitationRequest]>(
  'acceptInvitation',
);
export const invitationStateQuery = defineQuery<InvitationState>('invitationState');

/**
 * ApplicationFailure types of rejected invitation updates: the reason travels in the failure's type (never parsed
 * from its message) and the API maps each type to one HTTP answer.
 */
export const INVITATION_FAILURE = {
  notPending: 'InvitationNotPending',
  emailMismatch: 'InvitationEmailMismatch',
  tokenSuperseded: 'InvitationTokenSuperseded',
  alreadyMember: 'InvitationAlreadyMember',
} as const;

/** The invitation workflow (workflows/invitation.ts) by its registered type. */
export const invitationWorkflowType =
  workflowType<(input: InvitationWorkflowInput) => Promise<InvitationState>>()('invitationWorkflow');
