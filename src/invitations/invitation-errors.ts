import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { AppError, Conflict, Forbidden, NotFound } from '../errors';
import { INVITATION_FAILURE, type InvitationStatus } from './invitation-workflow-contract';

/** 410: the token was valid once but the invitation has ended (expired, revoked or used). */
export class Gone extends AppError {
  readonly status = 410;
}

export function endedInvitation(status: InvitationStatus): AppError {
  if (status === 'expired') return new Gone('invitation has expired');
  if (status === 'revoked') return new Gone('invitation has been revoked');
  return new Gone('invitation has already been accepted');
}

/** The rejected or failed Update becomes the answer the API caller gets. */
export function invitationUpdateError(err: unknown): unknown {
  if (err instanceof WorkflowNotFoundError) return new Conflict('invitation is no longer pending');
  if (!(err instanceof WorkflowUpdateFailedError)) return err;
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure)) return err;
  switch (cause.type) {
    case INVITATION_FAILURE.emailMismatch:
      return new Forbidden('invitation email mismatch');
    case INVITATION_FAILURE.tokenSuperseded:
      return new NotFound('invitation not found');
    case INVITATION_FAILURE.alreadyMember:
      return new Conflict('you are already a member of this organization');
    case INVITATION_FAILURE.notPending: {
      const status = /invitation is (expired|revoked|accepted)/.exec(cause.message)?.[1] as
        InvitationStatus | undefined;
      return status ? endedInvitation(status) : new Conflict('invitation is no longer pending');
    }
    default:
      return err;
  }
}
