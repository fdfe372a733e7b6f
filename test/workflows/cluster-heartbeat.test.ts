import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import {
  agentHeartbeatSignal,
  clusterHeartbeatStateQuery,
  type ClusterHeartbeatInput,
} from '../../src/clusters/cluster-workflow-contract';
import { clusterHeartbeatWorkflow } from '../../workflows/cluster-heartbeat';
import { eventually } from '../helpers/net';
import { bundle, startTimeSkipping } from '../helpers/time-skipping';
import { heartbeatStubs, type FakeRow } from '../helpers/cluster-rows';
import { historiesOf } from '../helpers/workflow-histories';

const { keep } = historiesOf('heartbeat');

/**
 * The per-cluster heartbeat workflow on the time-skipping server: a five-minute window takes milliseconds. The
 * activities are stubs typed from the real ones over an in-memory cluster row, judged by the server's (skipped)
 * clock exactly as the real ones judge by the database's. Continue-as-new is tested on the dev server, in real time
 * (test/integration/clusters/heartbeat-continue-as-new.test.ts): here its run change twice hung a loaded machine.
 */

const MINUTE = 60_000;
const WINDOW = 5 * MINUTE;

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
const taskQueue = `ts-${randomUUID()}`;
const rows = new Map<string, FakeRow>();

const stubs = () => heartbeatStubs(rows);

beforeAll(async () => {
  env = await startTimeSkipping();
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await bundle(require.resolve('../../workflows')),
    activities: stubs(),
  });
  running = worker.run();
}, 120_000);
afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

/** What the API does on a heartbeat: write the row; signal (with start) only when the row said Disconnected. */
async function heartbeat(clusterId: string, input: ClusterHeartbeatInput): Promise<boolean> {
  const row = rows.get(clusterId)!;
  row.lastHeartbeatMs = await env.currentTimeMs();
  if (row.status === 'Connected') return false;
  await env.client.workflow.signalWithStart(clusterHeartbeatWorkflow, {
    taskQueue,
    workflowId: `cluster-heartbeat-${clusterId}`,
    args: [input],
    signal: agentHeartbeatSignal,
    signalArgs: [],
  });
  return true;
}

function newCluster(windowMs = WINDOW): ClusterHeartbeatInput {
  const clusterId = randomUUID();
  rows.set(clusterId, { status: 'Disconnected', lastHeartbeatMs: null, transitions: [], checks: 0 });
  return { clusterId, windowMs, checksPerRun: 200 };
}

describe('cluster heartbeat workflow on the time-skipping server', () => {
  it('stays Connected while heartbeats arrive, then records exactly one disconnect a window after the last', async () => {
    const input = newCluster();
    const row = rows.get(input.clusterId)!;
    let signals = 0;
    if (await heartbeat(input.clusterId, input)) signals += 1;
    await eventually(async () => row.status === 'Connected', 20_000, 'cluster Connected');
    // Twenty minutes of heartbeats every 30 s: no signal, no transition.
    for (let i = 0; i < 40; i += 1) {
      await env.sleep(30_000);
      if (await heartbeat(input.clusterId, input)) signals += 1;
    }
    const last = row.lastHeartbeatMs!;
    expect(row.transitions.map((t) => t.to)).toEqual(['Connected']);
    await env.sleep(2 * WINDOW);
    await eventually(async () => row.status === 'Disconnected', 20_000, 'cluster Disconnected');
    expect(row.transitions.map((t) => t.to)).toEqual(['Connected', 'Disconnected']);
    const disconnectedAt = row.transitions[1]!.atMs;
    expect(disconnectedAt).toBeGreaterThanOrEqual(last + WINDOW);
    expect(disconnectedAt).toBeLessThan(last + WINDOW + 2000);
    expect(signals).toBe(1);
    // One timer check per window of heartbeats (not one per heartbeat): about 20 min / 5 min, plus the last.
    expect(row.checks).toBeLessThanOrEqual(6);
  });

  it('a heartbeat after the disconnect connects again; a stale signal without a recent heartbeat does not', async () => {
    const input = newCluster();
    const row = rows.get(input.clusterId)!;
    await heartbeat(input.clusterId, input);
    await eventually(async () => row.status === 'Connected', 20_000, 'cluster Connected');
    await env.sleep(2 * WINDOW);
    await eventually(async () => row.status === 'Disconnected', 20_000, 'cluster Disconnected');
    // A signal delivered late, with no heartbeat within the window: nothing to record.
    const handle = env.client.workflow.getHandle(`cluster-heartbeat-${input.clusterId}`);
    await handle.signal(agentHeartbeatSignal);
    expect((await handle.query(clusterHeartbeatStateQuery)).connected).toBe(false);
    expect(row.status).toBe('Disconnected');
    await heartbeat(input.clusterId, input);
    await eventually(async () => row.status === 'Connected', 20_000, 'cluster Connected');
    expect(row.transitions.map((t) => t.to)).toEqual(['Connected', 'Disconnected', 'Connected']);
    await handle.terminate('test over');
    await keep('connect-disconnect-connect', handle);
  });

  it('ends when the cluster is gone', async () => {
    // A one-second window, so the end comes within a second even when the server does not skip time: waiting on
    // `result()` for a five-minute window relied on its time skipping, and once hung a loaded run for 180 s. A
    // heartbeat connects only if its activity runs within the window: on a busy machine the next one does.
    const input = newCluster(1_000);
    const row = rows.get(input.clusterId)!;
    await eventually(
      async () => {
        if (row.transitions.some((t) => t.to === 'Connected')) return true;
        await heartbeat(input.clusterId, input);
        return false;
      },
      20_000,
      'cluster Connected',
    );
    rows.delete(input.clusterId);
    // The run may have seen the window pass before the row went (Disconnected, waiting for a heartbeat): a late
    // heartbeat's signal finds the row gone too. It may also have ended already.
    const handle = env.client.workflow.getHandle(`cluster-heartbeat-${input.clusterId}`);
    await handle.signal(agentHeartbeatSignal).catch((err: unknown) => {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    });
    await handle.result();
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    await keep('gone', handle);
  });
});
