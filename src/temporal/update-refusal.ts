import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { Conflict, Forbidden } from '../errors';

/**
 * A refused or failed Update of a resource's workflow becomes the answer of the API call, with the workflow's plain
 * reason: refusals about who asks answer 403, other known refusals (about the resource's state) 409; a workflow
 * that already ended answers 409 with the resource's status.
 */
export function updateRefusal(
  err: unknown,
  subject: string,
  known: Record<string, string>,
  forbidden: readonly string[],
): unknown {
  if (err instanceof WorkflowNotFoundError) return new Conflict(subject);
  if (!(err instanceof WorkflowUpdateFailedError)) return err;
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure) || !cause.type || !Object.values(known).includes(cause.type)) return err;
  return forbidden.includes(cause.type) ? new Forbidden(cause.message) : new Conflict(cause.message);
}
