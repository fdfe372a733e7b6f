import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

/** The failure type a workflow refused an Update with (undefined when it was accepted); other errors rethrown. */
export async function updateRefusal(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
      return err.cause.type ?? undefined;
    throw err;
  }
  return undefined;
}
