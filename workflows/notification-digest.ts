import {
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import {
  digestItemSignal,
  type DigestInput,
  type DigestItem,
} from '../src/notifications/notification-workflow-contract';

const { sendDigest } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * One member's digest: the first item after a quiet spell opens a window of the member's interval; when its timer
 * fires, everything gathered goes out as one summary mail (an idempotent activity). Idle, it waits without a timer.
 * Items are deduplicated by event id (the dispatcher may route one twice after a retry). Continue-as-new after
 * `sendsPerRun` summaries carries unsent items over.
 */
export async function notificationDigestWorkflow(input: DigestInput): Promise<void> {
  const items: DigestItem[] = [...(input.pending ?? [])];
  const seen = new Set(items.map((i) => i.eventId));
  setHandler(digestItemSignal, (item) => {
    if (seen.has(item.eventId)) return;
    seen.add(item.eventId);
    items.push(item);
  });
  for (let sent = 0; sent < input.sendsPerRun; sent++) {
    await condition(() => items.length > 0);
    await sleep(items[items.length - 1]!.intervalMs);
    const batch = items.splice(0, items.length);
    await sendDigest({ organizationId: input.organizationId, userId: input.userId, items: batch });
    for (const item of batch) seen.delete(item.eventId);
  }
  await condition(allHandlersFinished);
  await continueAsNew<typeof notificationDigestWorkflow>({ ...input, pending: items });
}
