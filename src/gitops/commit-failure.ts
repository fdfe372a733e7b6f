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
} as const;
