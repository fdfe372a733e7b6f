/**
 * Agent calls are counted per cluster credential (docs/security.md A-85): past AGENT_RATE_PER_CLUSTER calls per
 * window the agent protocol answers RESOURCE_EXHAUSTED, and another cluster's agent is not affected.
 */
import * as grpc from '@grpc/grpc-js';
import { AgentClient } from '../../../src/agent/agent-client';
import { createCluster, startClusterPlatform, stopClusterPlatform, type ClusterPlatform } from './cluster-harness';

let p: ClusterPlatform;

beforeAll(async () => {
  p = await startClusterPlatform({ AGENT_RATE_PER_CLUSTER: '5', AGENT_RATE_WINDOW: '1h' });
}, 120_000);
afterAll(() => stopClusterPlatform(p));

const facts = { kubernetesVersion: 'v1.31.0', agentVersion: 'x', controllerHealth: 'Healthy' };

async function joined(name: string): Promise<AgentClient> {
  const { joinToken } = await createCluster(p, name);
  const client = new AgentClient({ server: `127.0.0.1:${p.grpc.port}` });
  await client.register(joinToken);
  return client;
}

describe('agent calls per cluster credential', () => {
  it('answers RESOURCE_EXHAUSTED past the limit, for that cluster only', async () => {
    const noisy = await joined('noisy');
    const quiet = await joined('quiet');
    try {
      for (let i = 0; i < 5; i += 1) await noisy.heartbeat(facts);
      await expect(noisy.heartbeat(facts)).rejects.toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
      await expect(noisy.pullCommands()).rejects.toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
      await expect(quiet.heartbeat(facts)).resolves.toBeDefined();
    } finally {
      noisy.close();
      quiet.close();
    }
  });
});
