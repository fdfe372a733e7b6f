import { ConfigError, type Env, readDurationMs, readInt, readOptional, readString } from './parse';

export interface ClustersConfig {
  /** AGENT_GRPC_HOST, AGENT_GRPC_PORT: where the API process serves the agent protocol; port 0 picks a free one. */
  grpcHost: string;
  grpcPort: number;
  /** AGENT_GRPC_TLS_CERT, AGENT_GRPC_TLS_KEY: PEM files; both unset means plaintext (meant for loopback only). */
  grpcTlsCertPath: string | undefined;
  grpcTlsKeyPath: string | undefined;
  /** AGENT_DISCONNECT_AFTER: a cluster whose last heartbeat is older than this is Disconnected (spec: 5 minutes). */
  disconnectAfterMs: number;
  /** AGENT_JOIN_TOKEN_TTL: how long a join token can be used (once). */
  joinTokenTtlMs: number;
  /** AGENT_CREDENTIAL_OVERLAP: how long a rotated-out agent credential still works. */
  credentialOverlapMs: number;
  /** AGENT_COMMAND_TTL: a command the agent has not finished by then is expired. */
  commandTtlMs: number;
  /** AGENT_HEARTBEAT_CHECKS_PER_RUN: timer checks before the heartbeat workflow continues as new (bounds history). */
  heartbeatChecksPerRun: number;
  /** AGENT_RATE_PER_CLUSTER calls per AGENT_RATE_WINDOW for each cluster's agent credential (RESOURCE_EXHAUSTED beyond). */
  agentRate: { perCluster: number; windowMs: number };
}

export function loadClustersConfig(env: Env): ClustersConfig {
  const grpcTlsCertPath = readOptional(env, 'AGENT_GRPC_TLS_CERT');
  const grpcTlsKeyPath = readOptional(env, 'AGENT_GRPC_TLS_KEY');
  if ((grpcTlsCertPath === undefined) !== (grpcTlsKeyPath === undefined)) {
    throw new ConfigError('AGENT_GRPC_TLS_CERT and AGENT_GRPC_TLS_KEY must be set together');
  }
  return {
    grpcHost: readString(env, 'AGENT_GRPC_HOST', '127.0.0.1'),
    grpcPort: readInt(env, 'AGENT_GRPC_PORT', 8091, 0, 65535),
    grpcTlsCertPath,
    grpcTlsKeyPath,
    disconnectAfterMs: readDurationMs(env, 'AGENT_DISCONNECT_AFTER', 5 * 60_000),
    joinTokenTtlMs: readDurationMs(env, 'AGENT_JOIN_TOKEN_TTL', 3_600_000),
    credentialOverlapMs: readDurationMs(env, 'AGENT_CREDENTIAL_OVERLAP', 10 * 60_000),
    commandTtlMs: readDurationMs(env, 'AGENT_COMMAND_TTL', 10 * 60_000),
    heartbeatChecksPerRun: readInt(env, 'AGENT_HEARTBEAT_CHECKS_PER_RUN', 200, 1, 10_000),
    agentRate: {
      perCluster: readInt(env, 'AGENT_RATE_PER_CLUSTER', 600, 1, 1_000_000),
      windowMs: readDurationMs(env, 'AGENT_RATE_WINDOW', 60_000),
    },
  };
}
