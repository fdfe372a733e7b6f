import fs from 'node:fs';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
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

/** The SDK's default retry interceptor, then a guard against its retries outliving close(). */
export const clientInterceptors = () => [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), closedChannelGuard()];

export async function connectClient(config: TemporalConfig, address: string): Promise<Client> {
  const connection = await Connection.connect({
    ...connectionOptions(config, address),
    connectTimeout: '10s',
    interceptors: clientInterceptors(),
  });
  return new Client({ connection, namespace: config.namespace });
}
