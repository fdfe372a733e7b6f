import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../src/db/knex';
import { CommitRefused, runCommit, type CommitOutcome, type CommitPathDeps } from '../src/gitops/commit-path';
import { imageWebhookCommit } from '../src/webhooks/image-webhook-operation';
import { noteRequestsWaiting } from '../src/webhooks/webhook-request-repository';
import { batchCommit } from '../src/webhooks/image-update-batch';
import { finishImageRequestsNow, planWaiting } from '../src/webhooks/image-batch-steps';
import type { ImageUpdateActivities, PlannedBatch } from '../src/webhooks/image-update-workflow-contract';

export interface ImageUpdateActivityDeps {
  db: Db;
  commitPath: CommitPathDeps;
}

/**
 * The project workflow's steps: the commit of a batch, planned and finished inside the commit's unit, and the failure
 * of a batch whose commit never landed. Histories from before that (patch `image-updates-planned-in-commit`) replay
 * with the two steps around a separate commit: plan a batch from the requests still waiting (against the marks of
 * what earlier batches committed), then finish it (marks and request rows in one transaction). All are idempotent.
 */
export function createImageUpdateActivities({ db, commitPath }: ImageUpdateActivityDeps): ImageUpdateActivities {
  return {
    async commitImageRequests({ organizationId, projectId, entries, workflowId }): Promise<CommitOutcome> {
      try {
        return await runCommit(commitPath, imageWebhookCommit({ organizationId, projectId }, entries, workflowId));
      } catch (err) {
        // A refusal is an answer, not a fault: retrying cannot change it.
        if (err instanceof CommitRefused) throw ApplicationFailure.nonRetryable(err.message, err.type);
        throw err;
      }
    },

    async noteImageRequestsWaiting({ webhookIds, note }): Promise<void> {
      await noteRequestsWaiting(db, webhookIds, note);
    },

    async failImageRequests({ projectId, webhookIds, error }): Promise<void> {
      const plan = { updates: [], marks: [], superseded: {} };
      await finishImageRequestsNow(db, projectId, { plan, webhookIds }, { sha: null, error });
    },

    async planImageBatch({ organizationId, projectId, entries }): Promise<PlannedBatch> {
      const { plan, live } = await planWaiting(db, projectId, entries);
      return {
        plan,
        webhookIds: live.map((e) => e.webhookId),
        commit: batchCommit({ organizationId, projectId }, live, plan),
      };
    },

    async finishImageBatch({ projectId, batch, sha, error }): Promise<void> {
      await finishImageRequestsNow(db, projectId, batch, { sha, error });
    },
  };
}
