import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { repoRoot } from '../paths';

/** proto/agent.proto, the one description of the agent protocol that server and reference agent both load. */
export const AGENT_PROTO = path.join(repoRoot(), 'proto', 'agent.proto');

/** Messages of proto/agent.proto as proto-loader presents them (camelCase fields, defaults filled). */
export interface WorkloadMessage {
  kind: string;
  namespace: string;
  name: string;
}
export interface CommandMessage {
  id: string;
  name: string;
  application: string;
  workload: WorkloadMessage | null;
}
export interface HeartbeatRequest {
  kubernetesVersion: string;
  agentVersion: string;
  controllerHealth: string;
}
export interface HeartbeatResponse {
  commands: CommandMessage[];
  heartbeatIntervalSeconds: number;
}
export interface CommandResultMessage {
  commandId: string;
  succeeded: boolean;
  message: string;
}
export interface ApplicationMessage {
  name: string;
  namespace: string;
  syncStatus: string;
  revision: string;
  healthStatus: string;
}
export interface DriftedResourceMessage {
  resource: string;
  application: string;
  fields: { path: string; desired: string; live: string }[];
}

export function loadAgentService(): grpc.ServiceClientConstructor {
  const definition = protoLoader.loadSync(AGENT_PROTO, {
    keepCase: false,
    longs: Number,
    enums: String,
    defaults: true,
    arrays: true,
  });
  const root = grpc.loadPackageDefinition(definition) as unknown as {
    delivery: { agent: { v1: { AgentHub: grpc.ServiceClientConstructor } } };
  };
  return root.delivery.agent.v1.AgentHub;
}

/** The metadata key carrying `Bearer <agent credential>` on every call but Register. */
export const CREDENTIAL_METADATA = 'authorization';
