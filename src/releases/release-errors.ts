import { updateRefusal } from '../temporal/update-refusal';
import { RELEASE_FAILURE } from './release-workflow-contract';

/** A refused or failed Update becomes the answer of the API call, with the workflow's plain reason. */
export function releaseUpdateError(err: unknown, status: string): unknown {
  return updateRefusal(err, `release is ${status}`, RELEASE_FAILURE, [
    RELEASE_FAILURE.selfApproval,
    RELEASE_FAILURE.notEligible,
  ]);
}
