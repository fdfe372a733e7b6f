import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { Conflict } from '../errors';
import { BREAK_GLASS_FAILURE } from './break-glass-workflow-contract';

/** A close Update the workflow refused (already closed, or the workflow has ended) answers 409. */
export function breakGlassUpdateError(err: unknown): unknown {
  if (err instanceof WorkflowNotFoundError) return new Conflict('break-glass session is closed');
  if (
    err instanceof WorkflowUpdateFailedError &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === BREAK_GLASS_FAILURE.closed
  ) {
    return new Conflict('break-glass session is closed');
  }
  return err;
}
