/**
 * The image-update workflow (workflows/image-updates.ts): one workflow `image-updates-<projectId>` per project (one
 * repository, one commit at a time), each verified request a signal sent with signal-with-start. Imported by workflow
 * code, so it stays free of Node built-ins and I/O.
 */
import { defineSignal } from '@temporalio/workflow';
import type { CommitOutcome, CommitRequest } from '../gitops/commit-path';
import type { BatchPlan, QueuedImageUpdate } from './image-update-batch';
import { workflowType } from '../temporal/workflow-type';

export function imageUpdatesWorkflowId(projectId: string): string {
  return `image-updates-${projectId}`;
}

export const imageUpdateSignal = defineSignal<[QueuedImageUpdate]>('imageUpdate');

export interface ImageUpdatesInput {
  organizationId: string;
  projectId: string;
  /** The `git` task queue (the commit activity). */
  gitTaskQueue: string;
  /** How long a batch's commit waits out a Git storage outage (GIT_COMMIT_PATIENCE; absent in older inputs: default). */
  commitPatienceMs?: number;
  /** Requests received but not yet committed when the previous run continued as new. */
  pending?: QueuedImageUpdate[];
}

/** A batch planned by the activity: what to commit (null: nothing, every target superseded), and what it moves. */
export interface PlannedBatch {
  plan: BatchPlan;
  /** The requests of the batch still waiting (a request already finished is not planned again). */
  webhookIds: string[];
  commit: Omit<CommitRequest, 'workflowId'> | null;
}

export type ImageUpdateActivities = {
  /**
   * Commits the requests still waiting of `entries`, planned and finished inside the commit's unit
   * (src/webhooks/image-webhook-operation.ts); a refusal is thrown non-retryable.
   */
  commitImageRequests(input: {
    organizationId: string;
    projectId: string;
    entries: QueuedImageUpdate[];
    workflowId: string;
  }): Promise<CommitOutcome>;
  /** Their commit waits out a Git storage outage: the unfinished requests' status URL says so (`note`). */
  noteImageRequestsWaiting(input: { projectId: string; webhookIds: string[]; note: string }): Promise<void>;
  /** Finishes as failed those of the requests still waiting, with the reason (a commit that never landed). */
  failImageRequests(input: { projectId: string; webhookIds: string[]; error: string }): Promise<void>;
  planImageBatch(input: {
    organizationId: string;
    projectId: string;
    entries: QueuedImageUpdate[];
  }): Promise<PlannedBatch>;
  finishImageBatch(input: {
    projectId: string;
    batch: PlannedBatch;
    sha: string | null;
    error: string | null;
  }): Promise<void>;
};

/** The image-update batches of one target (workflows/image-updates.ts) by its registered type. */
export const imageUpdatesWorkflowType =
  workflowType<(input: ImageUpdatesInput) => Promise<void>>()('imageUpdatesWorkflow');
