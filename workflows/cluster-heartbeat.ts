import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import {
  agentHeartbeatSignal,
  clusterHeartbeatStateQuery,
  type ClusterHeartbeatInput,
} from '../src/clusters/cluster-workflow-contract';
import { runIsLong } from './lib/wait-until-clear';

/** Patch id: the run also continues as new when its history is long (connect/disconnect edges count, not only checks). */
const BOUNDED_RUN = 'heartbeat-bounded-run';

const { recordAgentConnected, checkAgentHeartbeat } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * Connected/Disconnected of one cluster. The API writes every heartbeat to the cluster row and signals here only when
 * that row said Disconnected; the activity then makes the transition (row, audit entry, agent.connect in one
 * transaction) if the last heartbeat is recent. While Connected, a timer fires at last heartbeat + window and re-reads
 * the row: a newer heartbeat moves the timer, none makes the transition to Disconnected (with agent.disconnect), judged
 * by the database in one conditional UPDATE so a heartbeat racing it wins. So each transition is recorded once, and
 * steady heartbeats cost one timer and one activity per window instead of a signal each. The history is bounded by
 * continue-as-new after `checksPerRun` timer checks, or sooner when the run's history is long (a flapping agent's
 * connect/disconnect edges write events without timer checks).
 */
export async function clusterHeartbeatWorkflow(input: ClusterHeartbeatInput): Promise<void> {
  const { workflowId } = workflowInfo();
  const target = { clusterId: input.clusterId, windowMs: input.windowMs, workflowId };
  let connected = input.connected ?? false;
  let lastHeartbeatMs = input.lastHeartbeatMs ?? Date.now();
  let pendingConnect = input.pendingConnect ?? false;
  let checks = 0;
  const bounded = patched(BOUNDED_RUN);
  const carryOn = async () => {
    await condition(allHandlersFinished);
    await continueAsNew<typeof clusterHeartbeatWorkflow>({ ...input, connected, lastHeartbeatMs, pendingConnect });
  };

  setHandler(agentHeartbeatSignal, () => {
    pendingConnect = true;
  });
  setHandler(clusterHeartbeatStateQuery, () => ({ connected, checks }));

  // A clock a little behind the database's would otherwise re-check in a tight loop.
  const minimumWaitMs = Math.min(1000, Math.ceil(input.windowMs / 10));

  for (;;) {
    if (bounded && runIsLong()) return carryOn();
    if (!connected) {
      setCurrentDetails('Disconnected: waiting for an agent heartbeat');
      await condition(() => pendingConnect);
      pendingConnect = false;
      const found = await recordAgentConnected(target);
      if (found.state === 'gone') return;
      connected = found.state === 'connected';
      if (!connected) continue;
      lastHeartbeatMs = found.lastHeartbeatMs ?? Date.now();
    }
    const checkAt = Math.max(Date.now() + minimumWaitMs, lastHeartbeatMs + input.windowMs);
    setCurrentDetails(`Connected: checks for a heartbeat at ${new Date(checkAt).toISOString()}`);
    await sleep(Math.max(minimumWaitMs, lastHeartbeatMs + input.windowMs - Date.now()));
    const found = await checkAgentHeartbeat(target);
    checks += 1;
    if (found.state === 'gone') return;
    connected = found.state === 'connected';
    // Signals that raced a check that still found heartbeats are stale; after a disconnect one may be a new edge.
    if (connected) pendingConnect = false;
    lastHeartbeatMs = found.lastHeartbeatMs ?? lastHeartbeatMs;
    if (checks >= input.checksPerRun || workflowInfo().continueAsNewSuggested) return carryOn();
  }
}
