import { WorkflowIdConflictPolicy, type WorkflowHandle, type WorkflowStartOptions } from '@temporalio/client';
import type { SearchAttributePair, Workflow } from '@temporalio/common';
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
export async function startWorkflow<W extends Workflow>(
  services: Pick<Services, 'temporal' | 'config' | 'metrics'>,
  workflowType: string | W,
  opts: StartOptions,
): Promise<WorkflowHandle<W>> {
  // A function reference is started by its name; passing it keeps the argument and result types with the call.
  const options = {
    taskQueue: taskQueue(services.config.temporal.taskQueuePrefix, opts.queue ?? 'platform'),
    workflowId: opts.workflowId,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: opts.args,
    typedSearchAttributes: opts.searchAttributes,
    memo: opts.memo,
    staticSummary: opts.summary,
    // The SDK's conditional type of `args` cannot be satisfied for a generic W; callers pass the workflow's arguments.
  } as unknown as WorkflowStartOptions<W>;
  const handle = await services.temporal.workflow.start<W>(workflowType, options);
  services.metrics.workflowStarts.inc({
    workflow: typeof workflowType === 'string' ? workflowType : workflowType.name,
  });
  return handle;
}
