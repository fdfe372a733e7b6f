import { batchCommit, planBatch, targetKey, type QueuedImageUpdate } from '../../../src/webhooks/image-update-batch';

const entry = (webhookId: string, signedAt: number, tag: string, tenants: string[]): QueuedImageUpdate => ({
  webhookId,
  requestId: `req-${webhookId}`,
  signedAt,
  updates: [
    {
      workload: 'web',
      tag,
      requestId: `req-${webhookId}`,
      pairs: tenants.map((tenant) => ({ tenant, environment: 'dev' })),
    },
  ],
});
const key = (tenant: string) => targetKey({ workload: 'web', tenant, environment: 'dev' });

describe('planning a batch of queued image updates', () => {
  it('gives each target the newest signed tag, the later arrival on a tie, and names the losers', () => {
    const plan = planBatch(
      [entry('a', 3_000, '3', ['acme']), entry('b', 2_000, '2', ['acme', 'globex']), entry('c', 3_000, '3b', ['acme'])],
      new Map(),
    );
    expect(plan.marks.map((m) => [m.tenant, m.tag, m.signedAt]).sort()).toEqual([
      ['acme', '3b', 3_000],
      ['globex', '2', 2_000],
    ]);
    expect(plan.superseded).toEqual({
      a: [{ workload: 'web', tenant: 'acme', environment: 'dev' }],
      b: [{ workload: 'web', tenant: 'acme', environment: 'dev' }],
      c: [],
    });
    expect(plan.updates.map((u) => [u.requestId, u.tag, u.pairs.map((p) => p.tenant)]).sort()).toEqual([
      ['req-b', '2', ['globex']],
      ['req-c', '3b', ['acme']],
    ]);
  });

  it('never goes back before what an earlier batch committed, and commits nothing when all is superseded', () => {
    const plan = planBatch([entry('old', 1_000, '1', ['acme'])], new Map([[key('acme'), 2_000]]));
    expect(plan.updates).toEqual([]);
    expect(plan.marks).toEqual([]);
    expect(plan.superseded.old).toEqual([{ workload: 'web', tenant: 'acme', environment: 'dev' }]);
    expect(batchCommit({ organizationId: 'o', projectId: 'p' }, [entry('old', 1_000, '1', ['acme'])], plan)).toBeNull();
  });

  it("keeps a target's chart version apart from its image tag: neither supersedes the other", () => {
    const chart = entry('chart', 1_000, '1.10.0', ['acme']);
    chart.updates[0]!.field = 'chart';
    const plan = planBatch([chart, entry('image', 2_000, '2', ['acme'])], new Map([[key('acme'), 3_000]]));
    // The image tag's mark (3 s) holds back the older image request only.
    expect(plan.updates).toEqual([
      expect.objectContaining({ field: 'chart', tag: '1.10.0', pairs: [{ tenant: 'acme', environment: 'dev' }] }),
    ]);
    expect(plan.marks).toEqual([
      { workload: 'web', tenant: 'acme', environment: 'dev', field: 'chart', tag: '1.10.0', signedAt: 1_000 },
    ]);
    expect(plan.superseded).toEqual({ chart: [], image: [{ workload: 'web', tenant: 'acme', environment: 'dev' }] });
  });

  it('builds one commit keyed by the first request, every winner in it', () => {
    const live = [entry('a', 1_000, '1', ['acme']), entry('b', 2_000, '2', ['globex'])];
    const commit = batchCommit({ organizationId: 'o', projectId: 'p' }, live, planBatch(live, new Map()));
    expect(commit?.idempotencyKey).toBe('webhook-a');
    expect(commit?.operation).toMatchObject({ type: 'image', source: 'webhook', tag: '1', more: [{ tag: '2' }] });
    expect(commit?.message).toBe('Image update via webhook: 2 workload update(s) from 2 request(s)');
  });
});
