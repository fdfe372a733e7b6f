import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import {
  DIGEST_ITEM_CAP,
  digestItemSignal,
  type DigestInput,
  type DigestItem,
} from '../src/notifications/notification-workflow-contract';
import { runIsLong } from './lib/wait-until-clear';

const { sendDigest } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** Patch id: a window keeps at most DIGEST_ITEM_CAP items and the run continues as new when it grows long. */
const BOUNDED_WINDOW = 'digest-bounded-window';

/**
 * One member's digest: the first item after a quiet spell opens a window of the member's interval; when it closes,
 * everything gathered goes out as one summary mail (an idempotent activity). Idle, it waits without a timer.
 * Items are deduplicated by event id (the dispatcher may route one twice after a retry). A window keeps at most
 * DIGEST_ITEM_CAP items and counts the rest; a run continues as new after `sendsPerRun` summaries, or in the middle of
 * a window once its history is long (a busy 7-day window receives thousands of signals), carrying the items, the
 * count and the window's end.
 */
export async function notificationDigestWorkflow(input: DigestInput): Promise<void> {
  const bounded = patched(BOUNDED_WINDOW);
  const items: DigestItem[] = [...(input.pending ?? [])];
  const seen = new Set(items.map((i) => i.eventId));
  let omitted = input.omitted ?? 0;
  let windowEndsAt = input.windowEndsAt ?? null;
  setHandler(digestItemSignal, (item) => {
    if (seen.has(item.eventId)) return;
    if (bounded && items.length >= DIGEST_ITEM_CAP) {
      omitted += 1;
      return;
    }
    seen.add(item.eventId);
    items.push(item);
  });
  const long = () => bounded && runIsLong();
  const carryOn = async () => {
    await condition(allHandlersFinished);
    await continueAsNew<typeof notificationDigestWorkflow>({
      ...input,
      pending: items,
      omitted,
      windowEndsAt: windowEndsAt ?? undefined,
    });
  };
  for (let sent = 0; sent < input.sendsPerRun; sent++) {
    setCurrentDetails('idle: waiting for the next event');
    await condition(() => items.length > 0 || long());
    if (items.length === 0) return carryOn();
    if (bounded) {
      windowEndsAt ??= Date.now() + items[items.length - 1]!.intervalMs;
      setCurrentDetails(`gathering events until ${new Date(windowEndsAt).toISOString()}`);
      if (await condition(long, Math.max(windowEndsAt - Date.now(), 1))) return carryOn();
    } else {
      await sleep(items[items.length - 1]!.intervalMs);
    }
    const batch = items.splice(0, items.length);
    const more = omitted;
    omitted = 0;
    windowEndsAt = null;
    await sendDigest({
      organizationId: input.organizationId,
      userId: input.userId,
      items: batch,
      ...(more > 0 ? { omitted: more } : {}),
    });
    for (const item of batch) seen.delete(item.eventId);
  }
  await carryOn();
}
