import fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import type { ClustersConfig } from '../config/clusters';
import { AppError, InvalidInput, NotFound, TooManyRequests, Unauthorized } from '../errors';
import { errorFields, type Logger } from '../logging/logger';
import type { AgentHub, AgentSession } from './agent-hub';
import {
  CREDENTIAL_METADATA,
  loadAgentService,
  type ApplicationMessage,
  type CommandMessage,
  type CommandResultMessage,
  type DriftedResourceMessage,
  type HeartbeatRequest,
} from './agent-protocol';
import type { ClusterCommand } from './command-repository';
import type { Metrics } from '../http/metrics';

export interface RunningAgentServer {
  port: number;
  /** Lets calls in flight finish for up to `graceMs`, then cuts the rest. */
  stop(graceMs: number): Promise<void>;
}

function statusOf(err: unknown): grpc.status {
  if (err instanceof Unauthorized) return grpc.status.UNAUTHENTICATED;
  if (err instanceof InvalidInput) return grpc.status.INVALID_ARGUMENT;
  if (err instanceof NotFound) return grpc.status.NOT_FOUND;
  if (err instanceof TooManyRequests) return grpc.status.RESOURCE_EXHAUSTED;
  return grpc.status.INTERNAL;
}

function toMessage(command: ClusterCommand): CommandMessage {
  return {
    id: command.id,
    name: command.command,
    application: command.params.application ?? '',
    workload: command.params.workload ?? null,
  };
}

type Unary<Req, Res> = grpc.handleUnaryCall<Req, Res>;

/**
 * The agent protocol over gRPC (proto/agent.proto), served by the API process. Each unary call authenticates the
 * credential in its metadata before anything else (Register uses the join token instead); errors map to gRPC codes,
 * and internal ones are logged but answered without detail.
 */
export async function startAgentGrpcServer(
  hub: AgentHub,
  config: ClustersConfig,
  log: Logger,
  metrics: Pick<Metrics, 'agentCallDuration'>,
): Promise<RunningAgentServer> {
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 4 * 1024 * 1024 });

  /** Answers a call: the result, or the error as its gRPC code (internal ones logged, answered without detail). */
  function answer<Res>(method: string, work: Promise<Res>, callback: grpc.sendUnaryData<Res>): void {
    const stop = metrics.agentCallDuration.startTimer({ method });
    work.then(
      (res) => {
        stop({ code: grpc.status[grpc.status.OK] });
        callback(null, res);
      },
      (err: unknown) => {
        if (!(err instanceof AppError)) log.error('agent call failed', { method, ...errorFields(err) });
        const code = statusOf(err);
        stop({ code: grpc.status[code] });
        callback({ code, details: err instanceof AppError ? err.message : 'internal error' });
      },
    );
  }

  /** Every call but Register: the credential in the metadata is authenticated before anything else. */
  function unary<Req, Res>(method: string, work: (req: Req, session: AgentSession) => Promise<Res>): Unary<Req, Res> {
    return (call, callback) => {
      const header = call.metadata.get(CREDENTIAL_METADATA)[0];
      const credential = typeof header === 'string' ? header.replace(/^Bearer /, '') : '';
      answer(
        method,
        hub.authenticate(credential).then((session) => work(call.request, session)),
        callback,
      );
    };
  }

  const register: Unary<{ joinToken: string }, { clusterId: string; agentCredential: string }> = (call, callback) =>
    answer('register', hub.register(call.request.joinToken), callback);

  const intervalSeconds = Math.max(1, Math.floor(config.disconnectAfterMs / 30_000));
  server.addService(loadAgentService().service, {
    register,
    heartbeat: unary('heartbeat', async (req: HeartbeatRequest, session) => {
      const { commands } = await hub.heartbeat(session, req);
      return { commands: commands.map(toMessage), heartbeatIntervalSeconds: intervalSeconds };
    }),
    pullCommands: unary('pullCommands', async (_req: unknown, session) => ({
      commands: (await hub.pullCommands(session)).map(toMessage),
    })),
    reportCommandResult: unary('reportCommandResult', async (req: CommandResultMessage, session) => {
      await hub.reportCommandResult(session, req);
      return {};
    }),
    reportSync: unary('reportSync', async (req: { applications: ApplicationMessage[] }, session) => {
      await hub.reportSync(session, req.applications);
      return {};
    }),
    reportDrift: unary('reportDrift', (req: { resources: DriftedResourceMessage[] }, session) =>
      hub.reportDrift(session, req.resources),
    ),
  });

  const credentials =
    config.grpcTlsCertPath && config.grpcTlsKeyPath
      ? grpc.ServerCredentials.createSsl(
          null,
          [
            {
              cert_chain: fs.readFileSync(config.grpcTlsCertPath),
              private_key: fs.readFileSync(config.grpcTlsKeyPath),
            },
          ],
          false,
        )
      : grpc.ServerCredentials.createInsecure();
  const host = config.grpcHost.includes(':') ? `[${config.grpcHost}]` : config.grpcHost;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${config.grpcPort}`, credentials, (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  return {
    port,
    stop: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
