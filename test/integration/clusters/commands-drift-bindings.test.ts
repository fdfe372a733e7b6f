import { AgentClient } from '../../../src/agent/agent-client';
import { makeOrg } from '../../helpers/fixtures';
import { makeProject } from '../gitops/gitops-harness';
import { eventually } from '../../helpers/net';
import {
  clusterEvents,
  clusterOf,
  createCluster,
  startAgent,
  startClusterPlatform,
  stopClusterPlatform,
  type ClusterPlatform,
  type RunningAgent,
} from './cluster-harness';

/** Commands down to the agent and their results back, drift from the agent's reports, and agent bindings. */
const COMMAND_TTL_MS = 1500;
let p: ClusterPlatform;
let clusterId: string;
let agent: RunningAgent;

interface Command {
  id: string;
  command: string;
  status: string;
  result: { message: string } | null;
}

async function command(id: string) {
  return (await p.http.get<Command>(`/api/v2/clusters/${clusterId}/commands/${id}`, { token: p.owner })).body;
}

beforeAll(async () => {
  p = await startClusterPlatform({ AGENT_COMMAND_TTL: `${COMMAND_TTL_MS}ms` });
  const cluster = await createCluster(p, 'workers');
  clusterId = cluster.id;
  agent = await startAgent(p.grpc, { joinToken: cluster.joinToken });
  await eventually(async () => (await clusterOf(p, clusterId)).status === 'Connected', 20_000, 'Connected');
}, 120_000);
afterAll(async () => {
  await agent?.stop();
  await stopClusterPlatform(p);
});

describe('commands', () => {
  it('reach the agent and their results come back: queued, sent, succeeded', async () => {
    const res = await p.http.post<Command>(`/api/v2/clusters/${clusterId}/commands`, {
      token: p.org.members.member!.token,
      body: { command: 'restart', workload: { kind: 'Deployment', namespace: 'web', name: 'api' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('queued');
    const done = await eventually(async () => {
      const c = await command(res.body.id);
      return c.status === 'succeeded' ? c : null;
    });
    expect(done.result?.message).toBe('restarted Deployment/web/api');
    expect(agent.cluster.executed.map((c) => [c.id, c.name])).toContainEqual([res.body.id, 'restart']);
    const list = await p.http.get<{ items: Command[] }>(`/api/v2/clusters/${clusterId}/commands`, { token: p.owner });
    expect(list.body.items.map((c) => c.id)).toContain(res.body.id);
    const audit = await p.platform.services.db('audit_log').where({ resource_id: clusterId }).select('action');
    expect(audit.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['cluster.command.restart', 'cluster.command.result']),
    );
  });

  it('are authorised per command: a viewer may not, a token restricted to commands.sync may only sync', async () => {
    const path = `/api/v2/clusters/${clusterId}/commands`;
    const viewer = await p.http.post(path, { token: p.org.members.viewer!.token, body: { command: 'sync' } });
    expect(viewer.status).toBe(403);
    const account = await p.http.post<{ id: string }>('/api/v2/iam/service-accounts', {
      token: p.owner,
      body: { name: 'ci-sync', role: 'member' },
    });
    const token = await p.http.post<{ token: string }>(`/api/v2/iam/service-accounts/${account.body.id}/tokens`, {
      token: p.owner,
      body: { scopes: ['write'], allowedActions: ['clusters.*.commands.sync'] },
    });
    expect(token.status).toBe(201);
    const sync = await p.http.post<Command>(path, { token: token.body.token, body: { command: 'sync' } });
    expect(sync.status).toBe(201);
    await eventually(async () => (await command(sync.body.id)).status === 'succeeded');
    const restart = await p.http.post(path, {
      token: token.body.token,
      body: { command: 'restart', workload: { kind: 'Deployment', namespace: 'web', name: 'api' } },
    });
    expect(restart.status).toBe(403);
    const unknown = await p.http.post(path, { token: p.owner, body: { command: 'delete-everything' } });
    expect(unknown.status).toBe(400);
    const missing = await p.http.post(path, { token: p.owner, body: { command: 'restart' } });
    expect(missing.status).toBe(400);
  });

  it('expire when the agent does not take them in time; the agent never runs them', async () => {
    const quiet = await createCluster(p, 'quiet');
    const res = await p.http.post<Command>(`/api/v2/clusters/${quiet.id}/commands`, {
      token: p.owner,
      body: { command: 'refresh' },
    });
    const read = async () =>
      (await p.http.get<Command>(`/api/v2/clusters/${quiet.id}/commands/${res.body.id}`, { token: p.owner })).body;
    expect((await read()).status).toBe('queued');
    await eventually(async () => (await read()).status === 'expired', 10_000, 'expired');
    const late = await startAgent(p.grpc, { joinToken: quiet.joinToken });
    await eventually(async () => (await clusterOf(p, quiet.id)).status === 'Connected', 20_000, 'Connected');
    await late.stop();
    expect(late.cluster.executed).toEqual([]);
    const audit = await p.platform.services
      .db('audit_log')
      .where({ resource_id: quiet.id })
      .select('action', 'details');
    expect(audit.filter((a: { action: string }) => a.action === 'cluster.command.expire')).toHaveLength(1);
  });
});

describe('drift', () => {
  it('a simulated drift appears in the drift route with its per-field diff and clears after a sync', async () => {
    agent.cluster.setDrift([
      {
        resource: 'Deployment/web/api',
        application: 'web',
        fields: [{ path: 'spec.replicas', desired: '3', live: '5' }],
      },
    ]);
    type Drift = { items: { resource: string; status: string; fields: unknown[]; resolvedAt: string | null }[] };
    const open = await eventually(async () => {
      const res = await p.http.get<Drift>(`/api/v2/clusters/${clusterId}/drift?status=open`, { token: p.owner });
      return res.body.items.length > 0 ? res.body : null;
    });
    expect(open.items).toEqual([
      expect.objectContaining({
        resource: 'Deployment/web/api',
        status: 'open',
        fields: [{ path: 'spec.replicas', desired: '3', live: '5' }],
      }),
    ]);
    expect(await clusterEvents(p, clusterId, 'drift.detect')).toHaveLength(1);
    expect((await clusterOf(p, clusterId)).applications).toEqual([
      expect.objectContaining({ name: 'web', syncStatus: 'OutOfSync' }),
    ]);

    await p.http.post(`/api/v2/clusters/${clusterId}/commands`, {
      token: p.owner,
      body: { command: 'sync', application: 'web' },
    });
    await eventually(async () => {
      const res = await p.http.get<Drift>(`/api/v2/clusters/${clusterId}/drift?status=resolved`, { token: p.owner });
      return res.body.items.length === 1;
    });
    const all = await p.http.get<Drift>(`/api/v2/clusters/${clusterId}/drift`, { token: p.owner });
    expect(all.body.items).toHaveLength(1);
    expect(all.body.items[0]!.resolvedAt).not.toBeNull();
    expect(await clusterEvents(p, clusterId, 'drift.detect')).toHaveLength(1);
  });

  it('a drift report makes its application OutOfSync at once, and a heartbeat after it keeps it so', async () => {
    // The agent's loop sends drift and then sync status as two calls; a reader between them (the race this test
    // once lost under load) must not see open drift beside an application still recorded Synced.
    const cluster = await createCluster(p, 'ordered-reports');
    const client = new AgentClient({ server: `127.0.0.1:${p.grpc.port}` });
    await client.register(cluster.joinToken);
    const facts = { kubernetesVersion: 'v1.31.2', agentVersion: 'test', controllerHealth: 'Healthy' };
    try {
      await client.heartbeat(facts);
      const app = { name: 'web', namespace: 'web', revision: 'HEAD', healthStatus: 'Healthy' };
      await client.reportSync([
        { ...app, syncStatus: 'Synced' },
        { ...app, name: 'admin', namespace: 'admin', syncStatus: 'Synced' },
      ]);
      await client.reportDrift([
        {
          resource: 'Deployment/web/api',
          application: 'web',
          fields: [{ path: 'spec.replicas', desired: '3', live: '5' }],
        },
      ]);
      await client.heartbeat(facts);
      expect((await clusterOf(p, cluster.id)).applications).toEqual([
        expect.objectContaining({ name: 'web', syncStatus: 'OutOfSync' }),
        expect.objectContaining({ name: 'admin', syncStatus: 'Synced' }),
      ]);
    } finally {
      client.close();
    }
  });
});

describe('agent bindings', () => {
  type Env = { environment: string; kubernetesVersion: string; kubernetesVersionSource: string };
  const environment = async (slug: string, env: string) =>
    (await p.http.get<{ items: Env[] }>(`/api/v2/projects/${slug}/environments`, { token: p.owner })).body.items.find(
      (e) => e.environment === env,
    )!;

  it("a bound environment's Kubernetes version follows the agent's report until set by hand", async () => {
    const tenantIds = await makeProject(p.platform, p.owner, 'shop', ['acme']);
    expect((await environment('shop', 'dev')).kubernetesVersion).toBe('1.27');
    const bound = await p.http.post<{ id: string; environments: Env[]; tenants: { slug: string }[] }>(
      '/api/v2/agent-bindings',
      // A tenant by its id, like on every route; the binding shows it by slug.
      { token: p.owner, body: { clusterId, project: 'shop', tenants: [tenantIds.acme!], environments: ['dev'] } },
    );
    expect(bound.status).toBe(201);
    expect(bound.body.tenants.map((t) => t.slug)).toEqual(['acme']);
    // At once from the version the agent already reported (v1.31.2).
    expect(bound.body.environments).toEqual([
      expect.objectContaining({ environment: 'dev', kubernetesVersion: '1.31', kubernetesVersionSource: 'agent' }),
    ]);
    expect((await environment('shop', 'prod')).kubernetesVersionSource).toBe('manual');

    agent.cluster.setKubernetesVersion('v1.32.1');
    await eventually(async () => (await environment('shop', 'dev')).kubernetesVersion === '1.32');

    // A manual setting wins from then on.
    const manual = await p.http.patch('/api/v2/projects/shop/environments/dev', {
      token: p.owner,
      body: { kubernetesVersion: '1.29' },
    });
    expect(manual.status).toBe(200);
    agent.cluster.setKubernetesVersion('v1.30.0');
    await eventually(async () => (await clusterOf(p, clusterId)).kubernetesVersion === 'v1.30.0');
    expect(await environment('shop', 'dev')).toMatchObject({
      kubernetesVersion: '1.29',
      kubernetesVersionSource: 'manual',
    });

    const list = await p.http.get<{ items: { id: string }[] }>(`/api/v2/agent-bindings?clusterId=${clusterId}`, {
      token: p.org.members.viewer!.token,
    });
    expect(list.body.items.map((b) => b.id)).toEqual([bound.body.id]);
    const duplicate = await p.http.post('/api/v2/agent-bindings', {
      token: p.owner,
      body: { clusterId, project: 'shop' },
    });
    expect(duplicate.status).toBe(409);
    expect((await p.http.delete(`/api/v2/agent-bindings/${bound.body.id}`, { token: p.owner })).status).toBe(200);
  });

  it("refuses tenants and environments that are not the project's", async () => {
    const res = await p.http.post('/api/v2/agent-bindings', {
      token: p.owner,
      body: { clusterId, project: 'shop', environments: ['staging'] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'environment staging is not part of the project' });
    const tenant = await p.http.post('/api/v2/agent-bindings', {
      token: p.owner,
      body: { clusterId, project: 'shop', tenants: ['initech'] },
    });
    expect([tenant.status, tenant.body]).toEqual([400, { error: 'tenant initech is not part of the project' }]);
  });

  it('refuses a project the active organization lacks with the spec 400 (line 336)', async () => {
    const res = await p.http.post('/api/v2/agent-bindings', { token: p.owner, body: { clusterId, project: 'nope' } });
    expect([res.status, res.body]).toEqual([400, { error: 'project not found in active organization' }]);
  });
});

describe('another organization', () => {
  it("sees none of the cluster's routes: 404 like a missing cluster", async () => {
    const other = await makeOrg(p.platform, ['owner'], 'enterprise');
    const token = other.members.owner!.token;
    for (const path of ['', '/drift', '/commands']) {
      const res = await p.http.get(`/api/v2/clusters/${clusterId}${path}`, { token });
      expect([path, res.status]).toEqual([path, 404]);
    }
    const cmd = await p.http.post(`/api/v2/clusters/${clusterId}/commands`, { token, body: { command: 'sync' } });
    expect(cmd.status).toBe(404);
    const bind = await p.http.post('/api/v2/agent-bindings', { token, body: { clusterId, project: 'shop' } });
    expect(bind.status).toBe(404);
  });
});
