import { randomUUID } from 'node:crypto';
import type { createActivities } from '../../activities';
import { digestItemSignal, type DigestItem } from '../../src/notifications/notification-workflow-contract';
import { notificationDigestWorkflow } from '../../workflows/notification-digest';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { expectBoundedRuns, HISTORY_BUDGET, withinBudget } from '../helpers/history-budget';

/**
 * History budget of the notification digest on the time-skipping server: a 7-day window receiving 3,000 events, several
 * runs' worth (expectBoundedRuns). Every run stays under the budget and the summary is still right; the documented
 * 10,000 events only add runs like these.
 * (One file per long-lived workflow, so the three budget runs go to parallel test workers.)
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const EVENTS = 3_000;

const digests: { items: number; omitted: number }[] = [];
const stubs: Pick<ReturnType<typeof createActivities>, 'sendDigest'> = {
  sendDigest: async (input) => {
    digests.push({ items: input.items.length, omitted: input.omitted ?? 0 });
    return 'sent';
  },
};

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs);

it(`gathers ${EVENTS} events of a 7-day digest window into one summary, under ${HISTORY_BUDGET} events per run`, async () => {
  const userId = randomUUID();
  const item = (n: number): DigestItem => ({
    eventId: `event-${n}`,
    event: 'release.deploy',
    title: `release ${n}`,
    occurredAt: new Date().toISOString(),
    projectId: null,
    intervalMs: 7 * DAY,
  });
  const workflowId = `notification-digest-org-${userId}`;
  const first = await ts.env.client.workflow.signalWithStart(notificationDigestWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId,
    args: [{ organizationId: 'org', userId, sendsPerRun: 10 }],
    signal: digestItemSignal,
    signalArgs: [item(0)],
  });
  const handle = ts.env.client.workflow.getHandle(workflowId);
  await withinBudget(
    handle,
    (async () => {
      // About 60 events an hour for a week, each hour's in a burst.
      for (let n = 1; n < EVENTS; n += 60) {
        await Promise.all(
          Array.from({ length: 60 }, (_, k) => n + k)
            .filter((k) => k < EVENTS)
            .map((k) => handle.signal(digestItemSignal, item(k))),
        );
        await ts.env.sleep(HOUR);
      }
      await ts.env.sleep(7 * DAY + HOUR);
    })(),
  );
  expect(digests).toEqual([{ items: 200, omitted: EVENTS - 200 }]);
  await expectBoundedRuns(ts.env.client, workflowId, first.signaledRunId, `digest of ${EVENTS} events`);
  await handle.terminate('test over');
}, 600_000);
