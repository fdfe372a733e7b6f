import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';

/** The most history events a single run of a workflow may write through its longest documented wait. */
export const HISTORY_BUDGET = 2_000;

/** Event counts of every run of a workflow id, oldest first (following continue-as-new). */
export async function runHistoryLengths(client: Client, workflowId: string, firstRunId?: string): Promise<number[]> {
  const lengths: number[] = [];
  let runId: string | undefined = firstRunId;
  for (;;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    lengths.push(events.length);
    const next = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    if (!next || lengths.length > 10_000) return lengths;
    runId = next;
  }
}

/** Events of the running run so far (0 when it is closed or not started yet). */
async function runningEvents(handle: WorkflowHandle): Promise<number> {
  try {
    const { status } = await handle.describe();
    return status.name === 'RUNNING' ? ((await handle.fetchHistory()).events?.length ?? 0) : 0;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 0;
    throw err;
  }
}

/**
 * Waits for `done` while watching the running run's history: a run that outgrows the budget is terminated at once
 * (so a workflow that polls through a 30-day wait fails in seconds, not after a million events) and the wait throws
 * with its event count, without waiting for the rest of the scenario (an Update to a terminated workflow may hang on
 * the test server).
 */
export async function withinBudget<T>(handle: WorkflowHandle, done: Promise<T>, budget = HISTORY_BUDGET): Promise<T> {
  let finished = false;
  done.catch(() => undefined);
  const watch = async (): Promise<never> => {
    for (;;) {
      // The test server leaves `historyLength` of describe() at 0: count the running run's events instead.
      const events = await runningEvents(handle);
      if (events > budget) {
        await handle.terminate(`history budget exceeded: ${events} events`);
        throw new Error(`one run wrote more than ${budget} events (${events} when stopped)`);
      }
      if (finished) return new Promise<never>(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  try {
    return await Promise.race([done, watch()]);
  } finally {
    finished = true;
  }
}
