import { WorkflowIdConflictPolicy, type WorkflowHandle } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import type { Services } from '../runtime/services';
import { taskQueue, type TaskQueueName } from './definitions';

export interface StartOptions {
  workflowId: string;
  args: unknown[];
  queue?: TaskQueueName;
  searchAttributes?: SearchAttributePair[];
  memo?: Record<string, unknown>;
  /** One line shown in the Temporal UI's workflow list. */
  summary?: string;
}

/**
 * The one way the platform starts workflows: business-key ids with USE_EXISTING, so a retried API call gets the
 * running workflow back instead of a second one, the configured task queue prefix, and the start counter.
 */
export async function startWorkflow(
  services: Pick<Services, 'temporal' | 'config' | 'metrics'>,
  workflowType: string,
  opts: StartOptions,
): Promise<WorkflowHandle> {
  const handle = await services.temporal.workflow.start(workflowType, {
    taskQueue: taskQueue(services.config.temporal.taskQueuePrefix, opts.queue ?? 'platform'),
    workflowId: opts.workflowId,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: opts.args,
    typedSearchAttributes: opts.searchAttributes,
    memo: opts.memo,
    staticSummary: opts.summary,
  });
  services.metrics.workflowStarts.inc({ workflow: workflowType });
  return handle;
}
