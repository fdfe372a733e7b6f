import { randomUUID } from 'node:crypto';
import type { createActivities } from '../../activities';
import { messageOf } from '../../src/notifications/message';
import {
  digestItemSignal,
  resolveIncidentUpdate,
  type DigestItem,
} from '../../src/notifications/notification-workflow-contract';
import { agentHeartbeatSignal } from '../../src/clusters/cluster-workflow-contract';
import { notificationDigestWorkflow } from '../../workflows/notification-digest';
import { escalationIncidentWorkflow } from '../../workflows/escalation-incident';
import { clusterHeartbeatWorkflow } from '../../workflows/cluster-heartbeat';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { HISTORY_BUDGET, runHistoryLengths, untilIdle, withinBudget } from '../helpers/history-budget';
import { heartbeatStubs, type FakeRow } from '../helpers/cluster-rows';

/**
 * History budget of the long-lived entity workflows on the time-skipping server, each through its longest documented
 * load: a 7-day digest window receiving 10,000 events, an escalation repeating for a week, 1,000 connect/disconnect
 * edges of one cluster. The largest single run stays under the budget and the outcome is still right.
 */
type Activities = Pick<
  ReturnType<typeof createActivities>,
  'sendDigest' | 'notifyEscalationTier' | 'recordIncidentTransition' | 'resolveIncidentTargets'
>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const digests: { items: number; omitted: number }[] = [];
let pages = 0;
const rows = new Map<string, FakeRow>();

const stubs: Activities = {
  sendDigest: async (input) => {
    digests.push({ items: input.items.length, omitted: input.omitted ?? 0 });
    return 'sent';
  },
  notifyEscalationTier: async () => {
    pages += 1;
  },
  recordIncidentTransition: async () => undefined,
  resolveIncidentTargets: async () => undefined,
};

const ts = timeSkippingWorker(require.resolve('../../workflows'), { ...stubs, ...heartbeatStubs(rows) });

async function largestRun(workflowId: string, firstRunId: string, label: string): Promise<number> {
  const runs = await runHistoryLengths(ts.env.client, workflowId, firstRunId);
  process.stdout.write(`${label}: ${runs.length} runs, largest ${Math.max(...runs)} events\n`);
  return Math.max(...runs);
}

it(`gathers 10,000 events of a 7-day digest window into one summary, under ${HISTORY_BUDGET} events per run`, async () => {
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
      for (let n = 1; n < 10_000; n += 60) {
        await Promise.all(
          Array.from({ length: 60 }, (_, k) => n + k)
            .filter((k) => k < 10_000)
            .map((k) => handle.signal(digestItemSignal, item(k))),
        );
        await ts.env.sleep(HOUR);
      }
      await ts.env.sleep(7 * DAY + HOUR);
    })(),
  );
  expect(digests).toEqual([{ items: 200, omitted: 9_800 }]);
  expect(await largestRun(workflowId, first.signaledRunId, 'digest of 10,000 events')).toBeLessThan(HISTORY_BUDGET);
  await handle.terminate('test over');
}, 600_000);

it(`pages an escalation repeating for a week, then resolves it, under ${HISTORY_BUDGET} events per run`, async () => {
  const incidentId = randomUUID();
  const repeatCount = (7 * DAY) / (20 * MINUTE);
  const handle = await ts.env.client.workflow.start(escalationIncidentWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `escalation-incident-${incidentId}`,
    args: [
      {
        incidentId,
        organizationId: 'org',
        policy: {
          policyId: 'policy-1',
          name: 'on call',
          tiers: [{ targets: [{ kind: 'user', id: 'u1' }] }, { targets: [{ kind: 'team', id: 't1' }] }],
          timeoutMs: 5 * MINUTE,
          repeatCount,
          repeatIntervalMs: 10 * MINUTE,
          businessHours: null,
        },
        message: messageOf({
          event: 'release.fail',
          eventId: randomUUID(),
          organizationId: 'org',
          projectId: null,
          occurredAt: new Date().toISOString(),
          data: {},
        }),
      },
    ],
  });
  const state = await withinBudget(
    handle,
    (async () => {
      await ts.env.sleep(7 * DAY + HOUR);
      await untilIdle(ts.env.client, handle.workflowId);
      return ts.env.client.workflow
        .getHandle(handle.workflowId)
        .executeUpdate(resolveIncidentUpdate, { args: [{ actor: stubActor, via: 'api' }] });
    })(),
  );
  expect(state.status).toBe('resolved');
  expect(pages).toBe((repeatCount + 1) * 2);
  expect(await handle.result()).toMatchObject({ status: 'resolved' });
  expect(await largestRun(handle.workflowId, handle.firstExecutionRunId, 'escalation for a week')).toBeLessThan(
    HISTORY_BUDGET,
  );
}, 600_000);

const stubActor = { userId: null, actorType: 'user' as const, actor: 'oncall@example.test', requestId: null };

it(`records 1,000 connect/disconnect edges of a cluster, under ${HISTORY_BUDGET} events per run`, async () => {
  const clusterId = randomUUID();
  const row: FakeRow = { status: 'Disconnected', lastHeartbeatMs: null, transitions: [], checks: 0 };
  rows.set(clusterId, row);
  const workflowId = `cluster-heartbeat-${clusterId}`;
  const window = 5 * MINUTE;
  let firstRunId = '';
  const handle = ts.env.client.workflow.getHandle(workflowId);
  const edges = async () => {
    for (let edge = 0; edge < 1_000; edge += 1) {
      // The API's side of a heartbeat: write the row, signal (with start) because it said Disconnected.
      row.lastHeartbeatMs = await ts.env.currentTimeMs();
      const started = await ts.env.client.workflow.signalWithStart(clusterHeartbeatWorkflow, {
        taskQueue: ts.taskQueue,
        workflowId,
        args: [{ clusterId, windowMs: window, checksPerRun: 100_000 }],
        signal: agentHeartbeatSignal,
        signalArgs: [],
      });
      firstRunId ||= started.signaledRunId;
      // No heartbeat after it: a window later the timer check records the disconnect.
      await ts.env.sleep(2 * window);
    }
  };
  await withinBudget(handle, edges());
  expect(row.transitions.map((t) => t.to)).toEqual(
    Array.from({ length: 1_000 }, () => ['Connected', 'Disconnected']).flat(),
  );
  expect(await largestRun(workflowId, firstRunId, '1,000 cluster edges')).toBeLessThan(HISTORY_BUDGET);
  await handle.terminate('test over');
}, 600_000);
