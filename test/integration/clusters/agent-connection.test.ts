import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { startAgentGrpcServer } from '../../../src/clusters/agent-grpc-server';
import { createLogger } from '../../../src/logging/logger';
import { exited, spawnScript } from '../../helpers/child-process';
import { AgentClient } from '../../../src/agent/agent-client';
import { eventually } from '../../helpers/net';
import { clusterHeartbeatStateQuery } from '../../../src/clusters/cluster-workflow-contract';
import {
  clusterEvents,
  clusterOf,
  createCluster,
  startAgent,
  startClusterPlatform,
  stopClusterPlatform,
  type ClusterPlatform,
} from './cluster-harness';

/**
 * The reference agent against the real API process: gRPC on loopback, the real Temporal dev server running the
 * heartbeat workflow, real PostgreSQL. The disconnect window and the credential overlap are shortened.
 */
const WINDOW_MS = 3000;
let p: ClusterPlatform;

beforeAll(async () => {
  p = await startClusterPlatform({ AGENT_DISCONNECT_AFTER: `${WINDOW_MS}ms`, AGENT_CREDENTIAL_OVERLAP: '1500ms' });
}, 120_000);
afterAll(() => stopClusterPlatform(p));

/** What the cluster's heartbeat workflow says of itself: connected, and how many window checks it made. */
function monitorState(clusterId: string) {
  return p.platform.services.temporal.workflow
    .getHandle(`cluster-heartbeat-${clusterId}`)
    .query(clusterHeartbeatStateQuery);
}

describe('agent join', () => {
  it('registers once with a join token; the same token fails a second time', async () => {
    const { id, joinToken } = await createCluster(p, 'join-once');
    expect(joinToken).toMatch(/^cjt_[0-9A-Za-z]{46}$/);
    const client = new AgentClient({ server: `127.0.0.1:${p.grpc.port}` });
    const joined = await client.register(joinToken);
    expect(joined.clusterId).toBe(id);
    expect(joined.agentCredential).toMatch(/^agt_[0-9A-Za-z]{46}$/);
    await expect(client.register(joinToken)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    client.close();
    // Stored hashed only.
    const stored = await p.platform.services.db('cluster_join_tokens').where({ cluster_id: id });
    expect(JSON.stringify(stored)).not.toContain(joinToken.slice(4));
    expect(stored[0].used_at).not.toBeNull();
    const audit = await p.platform.services.db('audit_log').where({ resource_id: id }).orderBy('created_at');
    expect(audit.map((a: { action: string }) => a.action)).toEqual([
      'cluster.create',
      'cluster.join-token.create',
      'cluster.agent.register',
    ]);
  });

  it('refuses calls without a valid credential', async () => {
    const client = new AgentClient({ server: `127.0.0.1:${p.grpc.port}` });
    const facts = { kubernetesVersion: 'v1.31.0', agentVersion: 'x', controllerHealth: 'Healthy' };
    await expect(client.heartbeat(facts)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    client.credential = `agt_${'A'.repeat(46)}`;
    await expect(client.heartbeat(facts)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    client.close();
  });
});

describe('status from heartbeats', () => {
  it('is Connected while heartbeats arrive and Disconnected one window after the agent stops, with one event each', async () => {
    const { id, joinToken } = await createCluster(p, 'heartbeats');
    expect((await clusterOf(p, id)).status).toBe('Disconnected');
    const agent = await startAgent(p.grpc, { joinToken });
    await eventually(async () => (await clusterOf(p, id)).status === 'Connected', 20_000, 'Connected');
    const connected = await clusterOf(p, id);
    expect(connected.kubernetesVersion).toBe('v1.31.2');
    expect(connected.controllerHealth).toBe('Healthy');
    expect(connected.lastHeartbeatAt).not.toBeNull();
    // Heartbeats over more than two windows: the monitor's timer checked twice and found them each time, so the
    // cluster is still Connected with one agent.connect (waiting on the checks, not on the clock).
    await eventually(async () => (await monitorState(id)).checks >= 2, 20_000, 'two window checks');
    expect(await monitorState(id)).toMatchObject({ connected: true });
    expect((await clusterOf(p, id)).status).toBe('Connected');
    expect(await clusterEvents(p, id, 'agent.connect')).toHaveLength(1);
    expect(await clusterEvents(p, id, 'agent.disconnect')).toHaveLength(0);

    const stoppedAt = Date.now();
    expect(await agent.stop()).toBe('stopped');
    await eventually(async () => (await clusterOf(p, id)).status === 'Disconnected', 20_000, 'Disconnected');
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(WINDOW_MS - 500);
    // The monitor now waits for a heartbeat signal only (no timer left that could record a second disconnect).
    await eventually(async () => !(await monitorState(id)).connected, 10_000, 'monitor disconnected');
    expect(await clusterEvents(p, id, 'agent.disconnect')).toHaveLength(1);
    expect(await clusterEvents(p, id, 'agent.connect')).toHaveLength(1);
    const audit = await p.platform.services
      .db('audit_log')
      .where({ resource_id: id })
      .whereIn('action', ['cluster.agent.connect', 'cluster.agent.disconnect']);
    expect(audit.map((a: { action: string; workflow_id: string }) => [a.action, a.workflow_id]).sort()).toEqual([
      ['cluster.agent.connect', `cluster-heartbeat-${id}`],
      ['cluster.agent.disconnect', `cluster-heartbeat-${id}`],
    ]);
  });
});

describe('heartbeat reconciler', () => {
  it('hands a Connected cluster whose workflow was terminated back to a new one, which disconnects it once', async () => {
    const { id, joinToken } = await createCluster(p, 'orphaned');
    const agent = await startAgent(p.grpc, { joinToken });
    await eventually(async () => (await clusterOf(p, id)).status === 'Connected', 20_000, 'Connected');
    await p.platform.services.temporal.workflow.getHandle(`cluster-heartbeat-${id}`).terminate('test');
    await agent.stop();
    const hub = p.platform.services.clusters.agentHub;
    await eventually(async () => (await hub.reconcileSilent()) > 0, 20_000, 'silent cluster found');
    await eventually(async () => (await clusterOf(p, id)).status === 'Disconnected', 20_000, 'Disconnected');
    expect(await clusterEvents(p, id, 'agent.disconnect')).toHaveLength(1);
  });
});

describe('credential rotation', () => {
  it('ends an agent still using the old credential after the overlap; the new credential works', async () => {
    const { id, joinToken } = await createCluster(p, 'rotation');
    const old = await startAgent(p.grpc, { joinToken });
    await eventually(async () => (await clusterOf(p, id)).status === 'Connected', 20_000, 'Connected');
    const rotated = await p.http.post<{ agentCredential: string; previousCredentialsExpireAt: string }>(
      `/api/v2/clusters/${id}/rotate-token`,
      { token: p.owner },
    );
    expect(rotated.status).toBe(201);
    const rotatedAt = Date.now();
    // The old agent keeps working through the overlap, then is refused and stops on its own.
    expect(await old.ended).toBe('credential refused');
    expect(Date.now() - rotatedAt).toBeGreaterThanOrEqual(1000);
    old.client.close();
    const fresh = await startAgent(p.grpc, { credential: rotated.body.agentCredential });
    const before = (await clusterOf(p, id)).lastHeartbeatAt;
    await eventually(async () => (await clusterOf(p, id)).lastHeartbeatAt !== before, 10_000, 'new heartbeat');
    expect(await fresh.stop()).toBe('stopped');
  });
});

describe('TLS', () => {
  it('serves the agent protocol over TLS when a certificate and key are configured', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tls-'));
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const secure = await startAgentGrpcServer(
      p.platform.services.clusters.agentHub,
      { ...p.platform.config.clusters, grpcPort: 0, grpcTlsCertPath: cert, grpcTlsKeyPath: key },
      createLogger('silent'),
      p.platform.services.metrics,
    );
    try {
      const { id, joinToken } = await createCluster(p, 'over-tls');
      const plain = new AgentClient({ server: `127.0.0.1:${secure.port}` });
      await expect(plain.register(joinToken)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
      plain.close();
      const client = new AgentClient({ server: `localhost:${secure.port}`, caPath: cert });
      expect((await client.register(joinToken)).clusterId).toBe(id);
      client.close();
    } finally {
      await secure.stop(1000);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run agent', () => {
  it('joins, keeps the credential file, heartbeats with --simulate and stops cleanly on SIGTERM', async () => {
    const { id, joinToken } = await createCluster(p, 'cli-agent');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-cli-'));
    const credentialFile = path.join(dir, 'credential');
    const args = ['--server', `127.0.0.1:${p.grpc.port}`, '--simulate', '--interval', '200ms'];
    const agent = spawnScript(
      'scripts/agent.ts',
      [...args, '--join-token', joinToken, '--credential-file', credentialFile],
      {},
    );
    try {
      await eventually(async () => (await clusterOf(p, id)).status === 'Connected', 30_000, 'Connected');
      expect(fs.readFileSync(credentialFile, 'utf8')).toMatch(/^agt_/);
      expect(fs.statSync(credentialFile).mode & 0o777).toBe(0o600);
      agent.kill('SIGTERM');
      expect(await exited(agent)).toBe(0);
      expect(agent.output()).toContain('"reason":"stopped"');
      // A restart reads the kept credential instead of a new join token.
      const again = spawnScript('scripts/agent.ts', [...args, '--credential-file', credentialFile], {});
      const before = (await clusterOf(p, id)).lastHeartbeatAt;
      await eventually(async () => (await clusterOf(p, id)).lastHeartbeatAt !== before, 30_000, 'heartbeat');
      again.kill('SIGTERM');
      expect(await exited(again)).toBe(0);
    } finally {
      agent.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
