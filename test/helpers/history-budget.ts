import { temporal } from '@temporalio/proto';
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

/**
 * What a history budget means, checked on every run of a workflow id (following continue-as-new): each run stays under
 * the budget, the scenario wrote more events than one run may hold (so a workflow that never continued as new fails
 * here), and it continued as new at least twice (the carried-over state survived more than one hand-over). A longer
 * scenario only adds runs like these. Prints the figures under `label`.
 */
export async function expectBoundedRuns(client: Client, workflowId: string, firstRunId: string, label: string) {
  const runs = await runHistoryLengths(client, workflowId, firstRunId);
  const total = runs.reduce((a, b) => a + b, 0);
  process.stdout.write(`${label}: ${runs.length} runs, ${total} events, largest ${Math.max(...runs)}\n`);
  expect(Math.max(...runs)).toBeLessThan(HISTORY_BUDGET);
  expect(total).toBeGreaterThan(HISTORY_BUDGET);
  expect(runs.length).toBeGreaterThanOrEqual(3);
}

const { EventType } = temporal.api.enums.v1;
/** A workflow or activity task in flight: the run is not idle yet. */
const BUSY = new Set<number>([
  EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
  EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
  EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
  EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
]);

/**
 * Waits until the latest run of a workflow is idle: its newest event is not a workflow or activity task in flight, and
 * neither the run nor its event count changed over three looks. The time-skipping server (not the real one) fails a
 * workflow task that continues as new while an Update it admitted meanwhile is pending ("invalid history builder state
 * for action") and then stalls; after `env.sleep()` the timers that fired may still be in flight, so a test sends its
 * Update only once the run is idle. Time stays locked between sleeps, so an idle run stays idle.
 */
export async function untilIdle(client: Client, workflowId: string): Promise<void> {
  let last = '';
  for (let same = 0; same < 3;) {
    const { runId } = await client.workflow.getHandle(workflowId).describe();
    const events = (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
    const look = `${runId}:${events.length}`;
    same = look === last && !BUSY.has(Number(events.at(-1)?.eventType)) ? same + 1 : 0;
    last = look;
    await new Promise((resolve) => setTimeout(resolve, 100));
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
  // The watch's call in flight, awaited before this returns: a call left running when the file closes its connection
  // and stops the server is retried by the client on a closed channel, which throws outside any test (it failed a
  // whole batch once: "Channel has been shut down").
  let polling: Promise<unknown> = Promise.resolve();
  done.catch(() => undefined);
  const watch = async (): Promise<never> => {
    while (!finished) {
      // The test server leaves `historyLength` of describe() at 0: count the running run's events instead.
      const poll = runningEvents(handle);
      polling = poll.catch(() => undefined);
      const events = await poll;
      if (events > budget) {
        await handle.terminate(`history budget exceeded: ${events} events`);
        throw new Error(`one run wrote more than ${budget} events (${events} when stopped)`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return new Promise<never>(() => undefined);
  };
  try {
    return await Promise.race([done, watch()]);
  } finally {
    finished = true;
    await polling;
  }
}

/**
 * The history length a run's workflow code saw when the last answer of activity `activityName` reached it: the event
 * id of the workflow task that took it (what `workflowInfo().historyLength` tells a cap check). 0 when none answered.
 */
export async function lengthSeenByLastAnswer(handle: WorkflowHandle, activityName: string): Promise<number> {
  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = events
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityName)
    .at(-1)?.eventId;
  const answered = events.findIndex(
    (e) => scheduled != null && String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === String(scheduled),
  );
  if (answered < 0) return 0;
  return Number(events.slice(answered).find((e) => e.workflowTaskStartedEventAttributes)?.eventId ?? 0);
}
