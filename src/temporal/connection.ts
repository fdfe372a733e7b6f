import fs from 'node:fs';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { status as grpcStatus } from '@grpc/grpc-js';
import { closedChannelGuard } from './closed-channel-guard';
import type { TemporalConfig } from '../config';

/** Connection options shared by the client (API) and, through NativeConnection, the workers. */
export interface SharedConnectionOptions {
  address: string;
  apiKey: string | undefined;
  tls:
    | {
        serverNameOverride: string | undefined;
        serverRootCACertificate: Buffer | undefined;
        clientCertPair: { crt: Buffer; key: Buffer } | undefined;
      }
    | undefined;
}

export function connectionOptions(config: TemporalConfig, address: string): SharedConnectionOptions {
  const tlsWanted = config.tlsCertPath !== undefined || config.tlsCaPath !== undefined || config.apiKey !== undefined;
  return {
    address,
    apiKey: config.apiKey,
    tls: tlsWanted
      ? {
          serverNameOverride: config.tlsServerName,
          serverRootCACertificate: config.tlsCaPath ? fs.readFileSync(config.tlsCaPath) : undefined,
          clientCertPair:
            config.tlsCertPath && config.tlsKeyPath
              ? { crt: fs.readFileSync(config.tlsCertPath), key: fs.readFileSync(config.tlsKeyPath) }
              : undefined,
        }
      : undefined,
  };
}

/**
 * The server refuses a signal (RESOURCE_EXHAUSTED "workflow is closing") while the workflow's continue-as-new task is
 * being completed, which takes milliseconds; the SDK backs off a second or more on any RESOURCE_EXHAUSTED, which held
 * image-update requests up to 1.8 s at every continue-as-new under load (issue 35, bench:webhook). That refusal is
 * retried after tens of milliseconds; every other status keeps the SDK's intervals.
 */
const WORKFLOW_CLOSING = /workflow is closing/i;

export function initialRetryIntervalMs(status: { code: number; details: string }): number {
  if (status.code !== grpcStatus.RESOURCE_EXHAUSTED) return 100;
  return WORKFLOW_CLOSING.test(status.details) ? 20 : 1000;
}

/** The SDK's retry interceptor (with the interval above), then a guard against its retries outliving close(). */
export const clientInterceptors = () => [
  makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ initialIntervalMs: initialRetryIntervalMs })),
  closedChannelGuard(),
];

/** gRPC's reconnect backoff (1 s, growing 1.6x) capped at TEMPORAL_RECONNECT_MAX instead of its own 120 s. */
function reconnectChannelArgs(config: Pick<TemporalConfig, 'reconnectMaxBackoffMs'>) {
  return {
    'grpc.initial_reconnect_backoff_ms': Math.min(1000, config.reconnectMaxBackoffMs),
    'grpc.max_reconnect_backoff_ms': config.reconnectMaxBackoffMs,
  };
}

export async function connectClient(config: TemporalConfig, address: string): Promise<Client> {
  const connection = await Connection.connect({
    ...connectionOptions(config, address),
    connectTimeout: '10s',
    interceptors: clientInterceptors(),
    channelArgs: reconnectChannelArgs(config),
  });
  return new Client({ connection, namespace: config.namespace });
}
