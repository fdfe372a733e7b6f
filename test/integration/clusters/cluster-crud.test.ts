import { startClusterPlatform, stopClusterPlatform, type ClusterPlatform } from './cluster-harness';

/** Clusters CRUD over HTTP: roles, pagination, conflicts, audit, and what deleting takes with it. */
let p: ClusterPlatform;

beforeAll(async () => {
  p = await startClusterPlatform();
}, 120_000);
afterAll(() => stopClusterPlatform(p));

interface Cluster {
  id: string;
  name: string;
  description: string;
  status: string;
  lastHeartbeatAt: string | null;
}

describe('clusters', () => {
  it('are created by admins, read by every member, listed by name with a cursor', async () => {
    const viewer = p.org.members.viewer!.token;
    const member = p.org.members.member!.token;
    expect((await p.http.post('/api/v2/clusters', { token: member, body: { name: 'nope' } })).status).toBe(403);
    const names = ['c-3', 'c-1', 'c-2'];
    for (const name of names) {
      const res = await p.http.post<Cluster>('/api/v2/clusters', {
        token: p.org.members.admin!.token,
        body: { name, description: `cluster ${name}` },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name, status: 'Disconnected', lastHeartbeatAt: null });
    }
    const first = await p.http.get<{ items: Cluster[]; nextCursor: string }>('/api/v2/clusters?limit=2', {
      token: viewer,
    });
    expect(first.body.items.map((c) => c.name)).toEqual(['c-1', 'c-2']);
    const second = await p.http.get<{ items: Cluster[]; nextCursor: string | null }>(
      `/api/v2/clusters?limit=2&cursor=${first.body.nextCursor}`,
      { token: viewer },
    );
    expect(second.body.items.map((c) => c.name)).toEqual(['c-3']);
    expect(second.body.nextCursor).toBeNull();
    const duplicate = await p.http.post('/api/v2/clusters', { token: p.owner, body: { name: 'c-1' } });
    expect(duplicate.status).toBe(409);
    const bad = await p.http.post('/api/v2/clusters', { token: p.owner, body: { name: 'Not A Name' } });
    expect(bad.status).toBe(400);
  });

  it('are renamed (a taken name conflicts) and deleted with their tokens, audited', async () => {
    const created = await p.http.post<Cluster>('/api/v2/clusters', { token: p.owner, body: { name: 'old-name' } });
    const id = created.body.id;
    const renamed = await p.http.patch<Cluster>(`/api/v2/clusters/${id}`, {
      token: p.owner,
      body: { name: 'new-name', description: 'moved' },
    });
    expect(renamed.body).toMatchObject({ name: 'new-name', description: 'moved' });
    const taken = await p.http.patch(`/api/v2/clusters/${id}`, { token: p.owner, body: { name: 'c-1' } });
    expect(taken.status).toBe(409);
    await p.http.post(`/api/v2/clusters/${id}/join-token`, { token: p.owner });
    expect((await p.http.delete(`/api/v2/clusters/${id}`, { token: p.owner })).status).toBe(204);
    expect((await p.http.get(`/api/v2/clusters/${id}`, { token: p.owner })).status).toBe(404);
    const db = p.platform.services.db;
    expect(await db('cluster_join_tokens').where({ cluster_id: id })).toEqual([]);
    const actions = (await db('audit_log').where({ resource_id: id }).orderBy('created_at')).map(
      (a: { action: string; category: string }) => `${a.category}:${a.action}`,
    );
    expect(actions).toEqual([
      'cluster:cluster.create',
      'cluster:cluster.update',
      'cluster:cluster.join-token.create',
      'cluster:cluster.delete',
    ]);
  });
});
