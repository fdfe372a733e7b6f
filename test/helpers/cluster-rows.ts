import { Context } from '@temporalio/activity';
import type { createActivities } from '../../activities';
import type { HeartbeatCheck } from '../../src/clusters/cluster-workflow-contract';

/**
 * In-memory cluster rows behind stub heartbeat activities typed from the real ones, judged by the server's (skipped)
 * clock exactly as the real ones judge by the database's.
 */
export type HeartbeatActivities = Pick<
  ReturnType<typeof createActivities>,
  'recordAgentConnected' | 'checkAgentHeartbeat'
>;

export interface FakeRow {
  status: 'Connected' | 'Disconnected';
  lastHeartbeatMs: number | null;
  transitions: { to: string; atMs: number }[];
  checks: number;
}

export function heartbeatStubs(rows: Map<string, FakeRow>): HeartbeatActivities {
  const nowMs = () => Context.current().info.currentAttemptScheduledTimestampMs;
  const checkOf = (row: FakeRow | undefined): HeartbeatCheck =>
    row
      ? { state: row.status === 'Connected' ? 'connected' : 'disconnected', lastHeartbeatMs: row.lastHeartbeatMs }
      : { state: 'gone', lastHeartbeatMs: null };
  return {
    recordAgentConnected: async ({ clusterId, windowMs }) => {
      const row = rows.get(clusterId);
      if (row && row.status !== 'Connected' && row.lastHeartbeatMs !== null) {
        if (nowMs() - row.lastHeartbeatMs < windowMs) {
          row.status = 'Connected';
          row.transitions.push({ to: 'Connected', atMs: nowMs() });
        }
      }
      return checkOf(row);
    },
    checkAgentHeartbeat: async ({ clusterId, windowMs }) => {
      const row = rows.get(clusterId);
      if (row) row.checks += 1;
      if (row?.status === 'Connected' && (row.lastHeartbeatMs === null || nowMs() - row.lastHeartbeatMs >= windowMs)) {
        row.status = 'Disconnected';
        row.transitions.push({ to: 'Disconnected', atMs: nowMs() });
      }
      return checkOf(row);
    },
  };
}
