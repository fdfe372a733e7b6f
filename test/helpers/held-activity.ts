import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { scaled } from './time-scale';
/**
 * Holds a stub activity open while a workflow test acts in the window it leaves (e.g. between an accepted cancel and
 * the final status it records): `hold()` before, the stub awaits `passage()`, `release()` after.
 */
export function heldActivity() {
  let gate: Promise<void> | null = null;
  let open = (): void => undefined;
  return {
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    passage: (): Promise<void> => gate ?? Promise.resolve(),
    release() {
      open();
      gate = null;
    },
  };
}

/** Waits (polling, with a deadline) until a stub activity recorded `entry` in `calls`. */
export async function untilCalled(calls: readonly string[], entry: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!calls.includes(entry)) {
    if (Date.now() > deadline) throw new Error(`activity call "${entry}" never came`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Whether the workflow of the running (stub) activity will see its run at the continue-as-new cap when this activity's
 * answer reaches it: the events so far, plus the activity's started and completed events and the workflow task that
 * takes the answer (scheduled, started), reach `cap`.
 */
export async function answerMeetsRunCap(client: Client, cap: number): Promise<boolean> {
  const execution = Context.current().info.workflowExecution;
  if (!execution) throw new Error('not the activity of a workflow');
  const { workflowId, runId } = execution;
  const { historyLength } = await client.workflow.getHandle(workflowId, runId).describe();
  return historyLength + 4 >= cap;
}
