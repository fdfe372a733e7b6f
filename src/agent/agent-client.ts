import fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import {
  CREDENTIAL_METADATA,
  loadAgentService,
  type ApplicationMessage,
  type CommandMessage,
  type CommandResultMessage,
  type DriftedResourceMessage,
  type HeartbeatRequest,
  type HeartbeatResponse,
} from '../clusters/agent-protocol';

export interface AgentClientOptions {
  /** host:port of the platform's agent protocol listener. */
  server: string;
  /** PEM of the CA that signed the server's certificate; TLS is used when set (or when `tls` is true). */
  caPath?: string;
  tls?: boolean;
}

type Callback<T> = (err: grpc.ServiceError | null, res: T) => void;
type Method = (req: unknown, meta: grpc.Metadata, opts: grpc.CallOptions, cb: Callback<unknown>) => void;

/** A promise-shaped client of proto/agent.proto; the credential goes into the metadata of every call. */
export class AgentClient {
  private readonly client: grpc.Client;
  credential: string | null = null;

  constructor(opts: AgentClientOptions) {
    const Service = loadAgentService();
    const secure = opts.caPath !== undefined || opts.tls === true;
    const credentials = secure
      ? grpc.credentials.createSsl(opts.caPath ? fs.readFileSync(opts.caPath) : null)
      : grpc.credentials.createInsecure();
    this.client = new Service(opts.server, credentials);
  }

  private call<T>(name: string, request: unknown, timeoutMs = 10_000): Promise<T> {
    const meta = new grpc.Metadata();
    if (this.credential) meta.set(CREDENTIAL_METADATA, `Bearer ${this.credential}`);
    const method = (this.client as unknown as Record<string, Method>)[name]!.bind(this.client);
    return new Promise<T>((resolve, reject) =>
      method(request, meta, { deadline: Date.now() + timeoutMs }, (err, res) =>
        err ? reject(err) : resolve(res as T),
      ),
    );
  }

  async register(joinToken: string): Promise<{ clusterId: string; agentCredential: string }> {
    const res = await this.call<{ clusterId: string; agentCredential: string }>('register', { joinToken });
    this.credential = res.agentCredential;
    return res;
  }

  heartbeat = (req: HeartbeatRequest) => this.call<HeartbeatResponse>('heartbeat', req);
  pullCommands = () => this.call<{ commands: CommandMessage[] }>('pullCommands', {});
  reportCommandResult = (req: CommandResultMessage) => this.call<object>('reportCommandResult', req);
  reportSync = (applications: ApplicationMessage[]) => this.call<object>('reportSync', { applications });
  reportDrift = (resources: DriftedResourceMessage[]) =>
    this.call<{ detected: number; resolved: number }>('reportDrift', { resources });

  close(): void {
    this.client.close();
  }
}

/** The gRPC code that means the credential is no longer accepted: the agent stops instead of retrying. */
export function isRefused(err: unknown): boolean {
  return (err as { code?: unknown })?.code === grpc.status.UNAUTHENTICATED;
}
