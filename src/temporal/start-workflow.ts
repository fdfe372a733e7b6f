import { WorkflowIdConflictPolicy, type Client, type WorkflowHandle } from '@temporalio/client';
import type { SearchAttributePair, SignalDefinition, Workflow } from '@temporalio/common';
import type { Metrics } from '../http/metrics';
import { taskQueue, type TaskQueueName } from './definitions';

export interface StartOptions<Args extends unknown[]> {
  workflowId: string;
  /** Type-checked against the workflow function's parameters. */
  args: Args;
  queue?: TaskQueueName;
  searchAttributes?: SearchAttributePair[];
  memo?: Record<string, unknown>;
  /** One line shown in the Temporal UI's workflow list. */
  summary?: string;
}

export interface WorkflowStarter {
  start<W extends Workflow>(workflow: W, opts: StartOptions<Parameters<W>>): Promise<WorkflowHandle<W>>;
  /** Signals the running workflow of that id, or starts it with the signal (one call, one server round trip). */
  signalWithStart<W extends Workflow>(
    workflow: W,
    signal: SignalDefinition<[]>,
    opts: Omit<StartOptions<Parameters<W>>, 'searchAttributes' | 'memo'>,
  ): Promise<void>;
}

/**
 * The one way the platform starts workflows: by function reference (arguments checked at the call), business-key
 * ids with USE_EXISTING so a retried API call gets the running workflow back instead of a second one, the configured
 * task queue prefix, and the start counter.
 */
export function createWorkflowStarter(
  temporal: Client,
  queuePrefix: string,
  metrics: Pick<Metrics, 'workflowStarts'>,
): WorkflowStarter {
  return {
    async start(workflow, opts) {
      const handle = await temporal.workflow.start(workflow, {
        taskQueue: taskQueue(queuePrefix, opts.queue ?? 'platform'),
        workflowId: opts.workflowId,
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        args: opts.args,
        typedSearchAttributes: opts.searchAttributes,
        memo: opts.memo,
        staticSummary: opts.summary,
      } as Parameters<Client['workflow']['start']>[1]);
      metrics.workflowStarts.inc({ workflow: workflow.name });
      return handle as WorkflowHandle<typeof workflow>;
    },
    async signalWithStart(workflow, signal, opts) {
      await temporal.workflow.signalWithStart(workflow, {
        taskQueue: taskQueue(queuePrefix, opts.queue ?? 'platform'),
        workflowId: opts.workflowId,
        args: opts.args,
        signal,
        signalArgs: [],
        staticSummary: opts.summary,
      } as Parameters<Client['workflow']['signalWithStart']>[1]);
    },
  };
}
