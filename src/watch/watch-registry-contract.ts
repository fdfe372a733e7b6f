import { defineQuery } from '@temporalio/workflow';
import { workflowType } from '../temporal/workflow-type';

/** The poll workflow of one external registry (workflows/watch-registry.ts); durations come from WATCH_* settings. */
export interface WatchRegistryInput {
  organizationId: string;
  registryId: string;
  /** The registry's name, for the summary. */
  name: string;
  intervalMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  pollsPerRun: number;
  /** Carried over continue-as-new: consecutive throttled or failed polls (the backoff's exponent). */
  failures?: number;
  /** Carried over continue-as-new: polls of earlier runs. */
  polls?: number;
}

/** What one poll did (the activity's answer, kept readable in the workflow's history). */
export interface PollSummary {
  /** The registry was deleted: the workflow ends. */
  gone: boolean;
  repositories: number;
  /** Tag-list pages requested (one per repository unless it is paginated): never one per subscription. */
  tagListRequests: number;
  /** Every request sent, manifests and tokens included. */
  requests: number;
  /** Repositories whose tag list answered 304 to the conditional request. */
  notModified: number;
  /** New versions recorded. */
  discoveries: number;
  /** Held discoveries applied after their freeze ended. */
  released: number;
  /** A 429 stopped the poll; the workflow waits `retryAfterMs` (at least) and backs off. */
  throttled: boolean;
  retryAfterMs: number | null;
  /** Repositories that could not be read, with why. */
  failed: string[];
  cpuMs: number;
}

export const watchRegistryWorkflowId = (registryId: string) => `watch-registry-${registryId}`;

/** Polls so far, the last poll's summary and the wait before the next. */
export const watchRegistryStateQuery = defineQuery<{
  polls: number;
  last: PollSummary | null;
  nextPollAt: number | null;
}>('watchRegistryState');

/** The poll workflow of one registry (workflows/watch-registry.ts) by the name the worker registers. */
export const watchRegistryWorkflowType =
  workflowType<(input: WatchRegistryInput) => Promise<void>>()('watchRegistryWorkflow');
