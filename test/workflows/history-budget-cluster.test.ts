import { randomUUID } from 'node:crypto';
import { agentHeartbeatSignal } from '../../src/clusters/cluster-workflow-contract';
import { clusterHeartbeatWorkflow } from '../../workflows/cluster-heartbeat';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { expectBoundedRuns, HISTORY_BUDGET, withinBudget } from '../helpers/history-budget';
import { heartbeatStubs, type FakeRow } from '../helpers/cluster-rows';

/**
 * History budget of a cluster's heartbeat monitor on the time-skipping server under a flapping agent: connect/disconnect
 * edges that write events without timer checks. 150 edges are several runs' worth (expectBoundedRuns): every run stays
 * under the budget and every edge is recorded; the documented 1,000 edges only add runs like these.
 */
const EDGES = 150;
const MINUTE = 60_000;
const rows = new Map<string, FakeRow>();

const ts = timeSkippingWorker(require.resolve('../../workflows'), heartbeatStubs(rows));

it(`records ${EDGES} connect/disconnect edges of a cluster, under ${HISTORY_BUDGET} events per run`, async () => {
  const clusterId = randomUUID();
  const row: FakeRow = { status: 'Disconnected', lastHeartbeatMs: null, transitions: [], checks: 0 };
  rows.set(clusterId, row);
  const workflowId = `cluster-heartbeat-${clusterId}`;
  const window = 5 * MINUTE;
  let firstRunId = '';
  const handle = ts.env.client.workflow.getHandle(workflowId);
  const edges = async () => {
    for (let edge = 0; edge < EDGES; edge += 1) {
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
    Array.from({ length: EDGES }, () => ['Connected', 'Disconnected']).flat(),
  );
  await expectBoundedRuns(ts.env.client, workflowId, firstRunId, `${EDGES} cluster edges`);
  await handle.terminate('test over');
}, 600_000);
