/**
 * Failure types of the one commit path (ApplicationFailure type names) that the API and the release workflow act on.
 * Imported by workflow code, so it stays free of Node built-ins.
 */
export const COMMIT_FAILURE = {
  projectGone: 'ProjectGone',
  archived: 'ProjectArchived',
  deliveryChanged: 'DeliveryChanged',
  badTarget: 'BadTarget',
  frozen: 'TargetFrozen',
  /** The release's or promotion's environment or tenant left the project (src/gitops/target-gone.ts). */
  targetGone: 'TargetGone',
  /** A wave of an image rollout that a newer one of the same workload and environment superseded (docs/rollouts.md). */
  superseded: 'RolloutSuperseded',
  /** The process that took the request closed the write's gate (commit-operation.ts CommitGate): nothing landed. */
  withdrawn: 'CommitWithdrawn',
} as const;

/** The refusal of a write whose gate closed (commit-operation.ts CommitGate). */
export function withdrawnWrite(): CommitRefused {
  return new CommitRefused(COMMIT_FAILURE.withdrawn, 'the write was withdrawn before it landed');
}

/** A write the commit path refuses: an answer, not a fault (the activity fails it non-retryable with `type`). */
export class CommitRefused extends Error {
  constructor(
    readonly type: (typeof COMMIT_FAILURE)[keyof typeof COMMIT_FAILURE],
    message: string,
  ) {
    super(message);
  }
}
