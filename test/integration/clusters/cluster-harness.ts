import { AgentClient } from '../../../src/agent/agent-client';
import { AgentRunner, type AgentEnd } from '../../../src/agent/agent-runner';
import { SimulatedCluster } from '../../../src/agent/simulated-cluster';
import { startAgentGrpcServer, type RunningAgentServer } from '../../../src/clusters/agent-grpc-server';
import { listDomainEvents } from '../../../src/events/domain-event-repository';
import { createLogger } from '../../../src/logging/logger';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/** The real app, worker and agent protocol listener (gRPC on loopback), with an organization and its owner. */
export async function startClusterPlatform(env: Record<string, string> = {}) {
  const platform = await startTestPlatform({ env });
  const grpc = await startAgentGrpcServer(
    platform.services.clusters.agentHub,
    platform.config.clusters,
    createLogger('silent'),
    platform.services.metrics,
  );
  const org = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer'], 'enterprise');
  return { platform, grpc, org, http: httpClient(platform.url), owner: org.members.owner!.token };
}

export type ClusterPlatform = Awaited<ReturnType<typeof startClusterPlatform>>;

export async function stopClusterPlatform(p: ClusterPlatform | undefined): Promise<void> {
  await p?.grpc.stop(1000);
  await p?.platform.close();
}

export async function createCluster(p: ClusterPlatform, name: string): Promise<{ id: string; joinToken: string }> {
  const cluster = await p.http.post<{ id: string }>('/api/v2/clusters', { token: p.owner, body: { name } });
  if (cluster.status !== 201) throw new Error(`${cluster.status} ${cluster.text}`);
  const token = await p.http.post<{ joinToken: string }>(`/api/v2/clusters/${cluster.body.id}/join-token`, {
    token: p.owner,
  });
  if (token.status !== 201) throw new Error(`${token.status} ${token.text}`);
  return { id: cluster.body.id, joinToken: token.body.joinToken };
}

export interface RunningAgent {
  client: AgentClient;
  cluster: SimulatedCluster;
  runner: AgentRunner;
  ended: Promise<AgentEnd>;
  stop(): Promise<AgentEnd>;
}

/** A reference agent playing a cluster, heartbeating every `intervalMs`, with a credential or a join token. */
export async function startAgent(
  grpc: RunningAgentServer,
  auth: { joinToken: string } | { credential: string },
  opts: { intervalMs?: number; kubernetesVersion?: string } = {},
): Promise<RunningAgent> {
  const client = new AgentClient({ server: `127.0.0.1:${grpc.port}` });
  if ('joinToken' in auth) await client.register(auth.joinToken);
  else client.credential = auth.credential;
  const cluster = new SimulatedCluster({ kubernetesVersion: opts.kubernetesVersion ?? 'v1.31.2' });
  const runner = new AgentRunner(client, cluster, {
    intervalMs: opts.intervalMs ?? 200,
    agentVersion: 'test',
    log: (m, f) => process.env.AGENT_LOG && process.stderr.write(`${m} ${JSON.stringify(f)}\n`),
  });
  const ended = runner.run();
  return {
    client,
    cluster,
    runner,
    ended,
    async stop() {
      runner.stop();
      const end = await ended;
      client.close();
      return end;
    },
  };
}

/** Domain events of the organization of one type about one cluster. */
export async function clusterEvents(p: ClusterPlatform, clusterId: string, type: string) {
  const events = await listDomainEvents(p.platform.services.db, p.org.org.id, 0, 1000);
  return events.filter((e) => e.type === type && e.payload.clusterId === clusterId);
}

export async function clusterOf(p: ClusterPlatform, id: string) {
  const res = await p.http.get<{
    status: string;
    lastHeartbeatAt: string | null;
    kubernetesVersion: string | null;
    controllerHealth: string | null;
    applications: { name: string; syncStatus: string }[];
  }>(`/api/v2/clusters/${id}`, { token: p.owner });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

export type { TestPlatform };
