import { continueAsNew, patched, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { DispatcherInput, PlannedDelivery } from '../src/notifications/notification-workflow-contract';
import { runIsLong } from './lib/wait-until-clear';

type Activities = ReturnType<typeof createActivities>;

const { planDispatch, readDispatchCursor } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Patch id: a run also ends when its history is long (a turn with many deliveries writes many events). */
const BOUNDED_RUN = 'dispatch-bounded-run';

/** Each delivery is its own activity with its own timeout, so a dead channel only costs its own chain. */
function deliverActivity(delivery: PlannedDelivery) {
  const { deliverNotification } = proxyActivities<Activities>({
    startToCloseTimeout: delivery.timeoutMs,
    // Infrastructure failures only (the claim row makes a repeated attempt a no-op once the send started).
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
    summary: `deliver ${delivery.message.event} to channel ${delivery.channelId}`,
  });
  return deliverNotification(delivery);
}

/**
 * One organization's outbox dispatcher: reads domain events in seq order, and hands each planned delivery to the
 * chain of its channel. A channel's deliveries run one after another (its events stay in order); channels run side by
 * side (a slow or dead one never delays another). Continue-as-new every `turnsPerRun` turns, or once the run's
 * history is long, after the chains drain.
 */
export async function notificationDispatchWorkflow(input: DispatcherInput): Promise<void> {
  let cursor = input.afterSeq ?? (await readDispatchCursor(input.organizationId));
  const chains = new Map<string, Promise<unknown>>();
  const bounded = patched(BOUNDED_RUN);
  const long = () => (bounded ? runIsLong() : workflowInfo().continueAsNewSuggested);
  for (let turn = 0; turn < input.turnsPerRun && !long(); turn++) {
    const plan = await planDispatch({ organizationId: input.organizationId, afterSeq: cursor, limit: input.batchSize });
    for (const delivery of plan.deliveries) {
      const previous = chains.get(delivery.channelId) ?? Promise.resolve();
      // A failed delivery is logged by its activity; the chain goes on with the channel's next event.
      chains.set(
        delivery.channelId,
        previous.then(() => deliverActivity(delivery)).catch(() => undefined),
      );
    }
    cursor = plan.lastSeq;
    if (plan.events < input.batchSize) await sleep(input.pollIntervalMs);
  }
  await Promise.all(chains.values());
  await continueAsNew<typeof notificationDispatchWorkflow>({ ...input, afterSeq: cursor });
}
