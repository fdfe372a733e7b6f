import { randomUUID } from 'node:crypto';
import { agentHeartbeatSignal } from '../../src/clusters/cluster-workflow-contract';
import { clusterHeartbeatWorkflow } from '../../workflows/cluster-heartbeat';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { HISTORY_BUDGET, largestRun, withinBudget } from '../helpers/history-budget';
import { heartbeatStubs, type FakeRow } from '../helpers/cluster-rows';

/**
 * History budget of a cluster's heartbeat monitor on the time-skipping server through its longest documented load:
 * 1,000 connect/disconnect edges. The largest single run stays under the budget and every edge is recorded.
 */
const MINUTE = 60_000;
const rows = new Map<string, FakeRow>();

const ts = timeSkippingWorker(require.resolve('../../workflows'), heartbeatStubs(rows));

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
  expect(await largestRun(ts.env.client, workflowId, firstRunId, '1,000 cluster edges')).toBeLessThan(HISTORY_BUDGET);
  await handle.terminate('test over');
}, 600_000);
