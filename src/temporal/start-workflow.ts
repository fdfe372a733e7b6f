import { WorkflowIdConflictPolicy, type Client, type WorkflowHandle } from '@temporalio/client';
import type { SearchAttributePair, SignalDefinition, Workflow } from '@temporalio/common';
import type { Metrics } from '../http/metrics';
import { taskQueue, type TaskQueueName } from './definitions';
import { startDescription, type SlugLookup, type WorkflowLabels } from './workflow-labels';
import type { WorkflowType } from './workflow-type';

export interface StartOptions<Args extends unknown[]> {
  workflowId: string;
  /** Type-checked against the workflow function's parameters. */
  args: Args;
  queue?: TaskQueueName;
  searchAttributes?: SearchAttributePair[];
  memo?: Record<string, unknown>;
  /** What it does, in words; with `labels`, the line in the Temporal UI's list is `org/project tenant/env: <summary>`. */
  summary?: string;
  /** Who and where it works for: search attributes by id and by slug, and the summary's prefix. */
  labels?: WorkflowLabels;
  /** Markdown shown on the workflow's page in the Temporal UI (e.g. the API resource it belongs to). */
  details?: string;
}

/**
 * A workflow to start: its type as the domain's contract declares it (src/temporal/workflow-type.ts), or the function
 * itself where the caller may import workflows/ (tests, workflows' own tooling). Either way it starts by name.
 */
export type Startable<W extends Workflow> = WorkflowType<W> | W;

export interface WorkflowStarter {
  start<W extends Workflow>(workflow: Startable<W>, opts: StartOptions<Parameters<W>>): Promise<WorkflowHandle<W>>;
  /** Signals the running workflow of this id, or starts it with the signal first (an entity per recipient). */
  signalWithStart<W extends Workflow, S extends unknown[]>(
    workflow: Startable<W>,
    opts: StartOptions<Parameters<W>> & { signal: SignalDefinition<S>; signalArgs: S },
  ): Promise<void>;
}

/**
 * The one way the platform starts workflows: by type (arguments checked at the call against the contract), business-key
 * ids with USE_EXISTING so a retried API call gets the running workflow back instead of a second one, the configured
 * task queue prefix, and the start counter.
 */
export function createWorkflowStarter(
  temporal: Client,
  queuePrefix: string,
  metrics: Pick<Metrics, 'workflowStarts'>,
  slugs: SlugLookup = async () => ({ organization: null, project: null }),
): WorkflowStarter {
  /** Search attributes, summary and details of a start (src/temporal/workflow-labels.ts). */
  async function described(opts: StartOptions<unknown[]>) {
    const none = { organization: null, project: null };
    const found = opts.labels
      ? await slugs(opts.labels.organizationId, opts.labels.projectId ?? null).catch(() => none)
      : none;
    return startDescription(opts, found);
  }
  return {
    async start<W extends Workflow>(workflow: Startable<W>, opts: StartOptions<Parameters<W>>) {
      const handle = await temporal.workflow.start(workflow.name, {
        taskQueue: taskQueue(queuePrefix, opts.queue ?? 'platform'),
        workflowId: opts.workflowId,
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        args: opts.args,
        memo: opts.memo,
        ...(await described(opts)),
      } as Parameters<Client['workflow']['start']>[1]);
      metrics.workflowStarts.inc({ workflow: workflow.name });
      return handle as WorkflowHandle<W>;
    },
    async signalWithStart(workflow, opts) {
      await temporal.workflow.signalWithStart(workflow.name, {
        taskQueue: taskQueue(queuePrefix, opts.queue ?? 'platform'),
        workflowId: opts.workflowId,
        args: opts.args,
        signal: opts.signal,
        signalArgs: opts.signalArgs,
        memo: opts.memo,
        ...(await described(opts)),
      } as Parameters<Client['workflow']['signalWithStart']>[1]);
    },
  };
}
