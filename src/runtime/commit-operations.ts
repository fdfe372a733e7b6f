import { operationKinds, type CommitOperationKind, type CommitOperation } from '../gitops/commit-operation';
import { filesOperation } from '../gitops/files-operation';
import { generateOperation } from '../gitops/generate-operation';
import { imageOperation } from '../gitops/image-operation';
import { promotionOperation } from '../promotions/promotion-operation';
import { releaseOperation } from '../releases/release-operation';
import { rolloutRollbackOperation } from '../rollouts/rollout-rollback-operation';
import { imageWebhookOperation } from '../webhooks/image-webhook-operation';

/**
 * Every kind of write the one commit path runs, each from its domain's folder. Generated from the domains by
 * `npm run build:commit-operations` from the `export const <name>: CommitOperationKind<...>` of every
 * file of src/ named `<kind>-operation.ts`: a committing domain adds its kind there, never here.
 */
export const COMMIT_OPERATIONS: CommitOperationKind<CommitOperation>[] = [
  filesOperation,
  generateOperation,
  imageOperation,
  promotionOperation,
  releaseOperation,
  rolloutRollbackOperation,
  imageWebhookOperation,
];

export const commitOperationKinds = () => operationKinds(COMMIT_OPERATIONS);
