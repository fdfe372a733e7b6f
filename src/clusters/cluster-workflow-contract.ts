/**
 * The per-cluster heartbeat workflow (workflows/cluster-heartbeat.ts): one `cluster-heartbeat-<id>` per cluster that
 * owns the Connected/Disconnected transitions. Imported by workflow code, so it stays free of Node built-ins and I/O.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowType } from '../temporal/workflow-type';

export function clusterHeartbeatWorkflowId(clusterId: string): string {
  return `cluster-heartbeat-${clusterId}`;
}

export interface ClusterHeartbeatInput {
  clusterId: string;
  /** AGENT_DISCONNECT_AFTER: a heartbeat older than this makes the cluster Disconnected. */
  windowMs: number;
  /** Timer checks per run before continue-as-new (bounds the history). */
  checksPerRun: number;
  /** Carried over continue-as-new. */
  connected?: boolean;
  lastHeartbeatMs?: number;
  pendingConnect?: boolean;
}

/**
 * Sent by the API only on the Disconnected -> Connected edge of a heartbeat (the row said Disconnected): steady
 * heartbeats cost no Temporal call at all; the workflow's timer re-reads the row's last heartbeat when it fires.
 */
export const agentHeartbeatSignal = defineSignal('agentHeartbeat');

export interface ClusterHeartbeatState {
  connected: boolean;
  checks: number;
}
export const clusterHeartbeatStateQuery = defineQuery<ClusterHeartbeatState>('clusterHeartbeatState');

/** What the heartbeat activities found: the status now, and the last heartbeat instant (ms) when there is one. */
export interface HeartbeatCheck {
  state: 'connected' | 'disconnected' | 'gone';
  lastHeartbeatMs: number | null;
}

/** The heartbeat workflow of one cluster (workflows/cluster-heartbeat.ts) by its registered type. */
export const clusterHeartbeatWorkflowType =
  workflowType<(input: ClusterHeartbeatInput) => Promise<void>>()('clusterHeartbeatWorkflow');
