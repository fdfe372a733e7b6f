import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { agentHeartbeatSignal } from '../../../src/clusters/cluster-workflow-contract';
import { clusterHeartbeatWorkflow } from '../../../workflows/cluster-heartbeat';
import { heartbeatStubs, type FakeRow } from '../../helpers/cluster-rows';
import { harnessState } from '../../helpers/harness-state';
import { eventually } from '../../helpers/net';

/**
 * The heartbeat workflow's continue-as-new on the real Temporal dev server, in real time with a 3-second window and two
 * checks a run (test/workflows/cluster-heartbeat.test.ts covers the rest on the time-skipping server, where this case
 * twice hung under a loaded machine around the run change). The activities are the typed stubs over an in-memory row.
 */
const WINDOW = 3_000;
const rows = new Map<string, FakeRow>();
const taskQueue = `heartbeat-can-${randomUUID()}`;
let connection: NativeConnection;
let clientConnection: Connection;
let client: Client;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  const address = harnessState().temporalAddress;
  connection = await NativeConnection.connect({ address });
  worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: { codePath: harnessState().bundlePath },
    activities: heartbeatStubs(rows),
  });
  running = worker.run();
  clientConnection = await Connection.connect({ address });
  client = new Client({ connection: clientConnection });
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await connection?.close();
  await clientConnection?.close();
});

it('continues as new after its checks per run, keeping the Connected state and the timer', async () => {
  const clusterId = randomUUID();
  const row: FakeRow = { status: 'Disconnected', lastHeartbeatMs: Date.now(), transitions: [], checks: 0 };
  rows.set(clusterId, row);
  const workflowId = `cluster-heartbeat-${clusterId}`;
  // The API's first heartbeat: the row said Disconnected, so it signals (with start).
  const handle = await client.workflow.signalWithStart(clusterHeartbeatWorkflow, {
    taskQueue,
    workflowId,
    args: [{ clusterId, windowMs: WINDOW, checksPerRun: 2 }],
    signal: agentHeartbeatSignal,
    signalArgs: [],
  });
  try {
    await eventually(async () => row.status === 'Connected', 20_000, 'cluster Connected');
    const firstRun = (await handle.describe()).runId;
    // Steady heartbeats for four windows: the row is written, nothing is signalled; the timer checks each window.
    let last = Date.now();
    for (const stop = last + 4 * WINDOW; Date.now() < stop;) {
      last = Date.now();
      row.lastHeartbeatMs = last;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(row.checks).toBeGreaterThan(2);
    expect((await handle.describe()).runId).not.toBe(firstRun);
    expect(row.transitions.map((t) => t.to)).toEqual(['Connected']);
    // The new run kept the timer: a window after the last heartbeat (and one check later at most) it disconnects.
    await eventually(async () => row.status === 'Disconnected', 4 * WINDOW, 'cluster Disconnected');
    expect(row.transitions.map((t) => t.to)).toEqual(['Connected', 'Disconnected']);
    expect(row.transitions[1]!.atMs).toBeGreaterThanOrEqual(last + WINDOW);
  } finally {
    await handle.terminate('test over').catch(() => undefined);
    rows.delete(clusterId);
  }
});
