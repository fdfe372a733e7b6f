import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { Conflict, Forbidden } from '../errors';
import { RELEASE_FAILURE } from './release-workflow-contract';

/** Refusals that are about who asks (403); every other refusal is about the release's state (409). */
const FORBIDDEN: ReadonlySet<string> = new Set([RELEASE_FAILURE.selfApproval, RELEASE_FAILURE.notEligible]);
const KNOWN: ReadonlySet<string> = new Set(Object.values(RELEASE_FAILURE));

/** A refused or failed Update becomes the answer of the API call, with the workflow's plain reason. */
export function releaseUpdateError(err: unknown, status: string): unknown {
  if (err instanceof WorkflowNotFoundError) return new Conflict(`release is ${status}`);
  if (!(err instanceof WorkflowUpdateFailedError)) return err;
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure) || !cause.type || !KNOWN.has(cause.type)) return err;
  return FORBIDDEN.has(cause.type) ? new Forbidden(cause.message) : new Conflict(cause.message);
}
