import { filesOperation } from '../gitops/files-operation';
import { generateOperation } from '../gitops/generate-operation';
import { imageOperation } from '../gitops/image-operation';
import { operationKinds, type CommitOperationKind, type CommitOperation } from '../gitops/commit-operation';
import { promotionOperation } from '../promotions/promotion-operation';
import { releaseOperation } from '../releases/release-operation';
import { rolloutRollbackOperation } from '../rollouts/rollout-rollback-operation';
import { imageWebhookOperation } from '../webhooks/image-webhook-operation';

/**
 * Every kind of write the one commit path runs, each from its domain's folder: a new committing domain adds its kind
 * here (a module manifest can contribute it to this list).
 */
export const COMMIT_OPERATIONS: CommitOperationKind<CommitOperation>[] = [
  filesOperation,
  generateOperation,
  imageOperation,
  imageWebhookOperation,
  releaseOperation,
  promotionOperation,
  rolloutRollbackOperation,
];

export const commitOperationKinds = () => operationKinds(COMMIT_OPERATIONS);
