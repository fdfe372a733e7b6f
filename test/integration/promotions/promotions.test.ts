import { randomUUID } from 'node:crypto';
import { insertPromotion } from '../../../src/promotions/promotion-repository';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { promotionClient, type PromotionBody } from './promotion-harness';

/**
 * Promotions end to end over HTTP with the real Temporal dev server, PostgreSQL and git: what moves, one commit for
 * every tenant, sync reports per tenant, the Blocked causes listed together and clearing by themselves.
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { PROMOTION_RECHECK: '1s' } });
  api = promotionClient(platform);
  org = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer']);
  owner = org.members.owner!.token;
}, 120_000);
afterAll(() => platform.close());

const errorOf = (body: unknown) => (body as { error?: string }).error ?? '';

/** The controller reports each tenant's Application of the promotion's commit through the controller webhook. */
async function reportAll(promotion: PromotionBody, tenants: string[], health = 'Healthy') {
  const { controller } = api;
  const token = await controller.tokenFor(owner);
  for (const tenant of tenants) {
    const app = `shop.${tenant}.prod.web`;
    const res = await controller.post(token, controller.event(app, promotion.commitSha!, health, 'Synced'));
    expect(res.status).toBe(200);
  }
}

describe('a promotion from dev to prod of two tenants', () => {
  it('moves the dev versions of both tenants in one commit and turns Healthy by sync reports', async () => {
    const tenants = await makeProject(platform, owner, 'shop', ['acme', 'globex']);
    await api.releaseToDev(owner, 'shop', tenants.acme!, '2.0.0');
    await api.releaseToDev(owner, 'shop', tenants.globex!, '2.1.0');

    const requested = await api.request(org.members.member!.token, 'shop', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
    });
    expect(requested.status).toBe(201);
    expect(requested.body.moves).toEqual([
      {
        tenant: 'acme',
        tenantId: tenants.acme,
        changes: [{ workload: 'web', tag: '2.0.0' }],
        previous: [{ workload: 'web', tag: '1.0.0' }],
      },
      {
        tenant: 'globex',
        tenantId: tenants.globex,
        changes: [{ workload: 'web', tag: '2.1.0' }],
        previous: [{ workload: 'web', tag: '1.0.0' }],
      },
    ]);
    const syncing = await api.status(owner, requested.body.id, 'Syncing');
    expect(syncing.commitSha).toMatch(/^[0-9a-f]{40}$/);

    // One commit holds both tenants' prod files.
    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
    const files = (await gitCli(['show', '--name-only', '--format=', syncing.commitSha!], clone.dir)).stdout
      .split('\n')
      .filter(Boolean);
    expect(files).toEqual(
      expect.arrayContaining(['tenants/acme/prod/web/deployment.yaml', 'tenants/globex/prod/web/deployment.yaml']),
    );
    expect(files.every((f) => f.includes('/prod/'))).toBe(true);
    const acme = await gitCli(['show', `${syncing.commitSha}:tenants/acme/prod/web/deployment.yaml`], clone.dir);
    expect(acme.stdout).toContain('registry.example.com/shop/web:2.0.0');
    const globex = await gitCli(['show', `${syncing.commitSha}:tenants/globex/prod/web/deployment.yaml`], clone.dir);
    expect(globex.stdout).toContain('registry.example.com/shop/web:2.1.0');

    await reportAll(syncing, ['acme']);
    expect((await api.get(owner, requested.body.id)).status).toBe('Syncing');
    await reportAll(syncing, ['globex']);
    const healthy = await api.status(owner, requested.body.id, 'Healthy');
    expect(healthy.sync).toEqual({
      acme: { syncStatus: 'Synced', healthStatus: 'Healthy' },
      globex: { syncStatus: 'Synced', healthStatus: 'Healthy' },
    });

    const audit = await api.http.get<{ items: { action: string; gitCommitSha: string | null }[] }>(
      `/api/v2/audit-logs?resourceType=promotion&resourceId=${requested.body.id}&limit=100`,
      { token: owner },
    );
    const actions = audit.body.items.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['promotion.request', 'promotion.execute', 'promotion.healthy']));
    expect(audit.body.items.find((e) => e.action === 'promotion.execute')?.gitCommitSha).toBe(syncing.commitSha);
    // Filed under the spec's organizational category `promotion` (not `deployment`), so its filter finds them.
    const byCategory = await api.http.get<{ items: { action: string; resourceId: string; category: string }[] }>(
      '/api/v2/audit-logs?category=promotion&limit=100',
      { token: owner },
    );
    const promotionEntries = byCategory.body.items.filter((e) => e.resourceId === requested.body.id);
    expect(promotionEntries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['promotion.request', 'promotion.execute', 'promotion.healthy']),
    );
    expect(audit.body.items.length).toBe(promotionEntries.length);

    const again = await api.request(owner, 'shop', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect([again.status, errorOf(again.body)]).toEqual([
      422,
      'nothing to promote: prod already runs the versions of dev',
    ]);
    const list = await api.http.get<{ items: { id: string }[] }>('/api/v2/projects/shop/promotions', {
      token: org.members.viewer!.token,
    });
    expect(list.body.items.map((p) => p.id)).toContain(requested.body.id);
    const history = await api.http.get<{ timeline: { step: string }[] }>(
      `/api/v2/promotions/${requested.body.id}/history`,
      { token: owner },
    );
    expect(history.body.timeline.map((t) => t.step)).toEqual(expect.arrayContaining(['evaluate the causes', 'commit']));
    expect(history.body.timeline.at(-1)?.step).toBe('created');
  });
});

describe('a Blocked promotion', () => {
  it('lists every cause that holds and proceeds by itself once they clear', async () => {
    const tenants = await makeProject(platform, owner, 'gated', ['acme']);
    await api.prodApprovalPolicy(owner, 'gated', 'prod needs one');
    const failed = await api.releaseToDev(owner, 'gated', tenants.acme!, '3.0.0', 'Degraded');
    expect(failed.status).toBe('Failed');

    const requested = await api.request(org.members.member!.token, 'gated', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
    });
    expect(requested.status).toBe(201);
    const blocked = await api.until(owner, requested.body.id, (p) => p.status === 'Blocked' && p.causes.length === 3);
    // 3.0.0 was reported Degraded in dev: never verified there (issue 27).
    expect(blocked.causes.map((c) => c.cause)).toEqual(['approvals', 'sourceUnhealthy', 'sourceUnverified']);

    const self = await api.http.post(`/api/v2/promotions/${requested.body.id}/approve`, {
      token: org.members.member!.token,
      body: {},
    });
    expect(self.status).toBe(403);
    const approved = await api.http.post(`/api/v2/promotions/${requested.body.id}/approve`, {
      token: org.members.admin!.token,
      body: { comment: 'go' },
    });
    expect(approved.status).toBe(200);
    const left = await api.until(owner, requested.body.id, (p) => p.causes.length === 2);
    expect(left.status).toBe('Blocked');
    expect(left.causes.map((c) => c.cause)).toEqual(['sourceUnhealthy', 'sourceUnverified']);

    // The source turns Healthy with another version: 3.0.0, never verified in dev, still may not leave it.
    await api.releaseToDev(owner, 'gated', tenants.acme!, '3.0.1');
    const unverified = await api.until(owner, requested.body.id, (p) => p.causes.length === 1);
    expect(unverified.status).toBe('Blocked');
    expect(unverified.causes[0]).toMatchObject({
      cause: 'sourceUnverified',
      message: 'dev has not verified acme/web 3.0.0 (not-deployed)',
    });
    expect(unverified.moves[0]!.changes).toEqual([{ workload: 'web', tag: '3.0.0' }]);
  });

  it('has a readable workflow id; one recorded as promotion-<id> before runs, is approved and read by that id', async () => {
    const tenants = await makeProject(platform, owner, 'legacy', ['acme']);
    await api.prodApprovalPolicy(owner, 'legacy', 'prod needs one');
    await api.releaseToDev(owner, 'legacy', tenants.acme!, '4.0.0');
    const requested = await api.request(org.members.member!.token, 'legacy', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
    });
    expect(requested.status).toBe(201);
    // Readable in the Temporal UI's list: project, tenant, environments, then the unique part (issue 50).
    expect(requested.body.workflowId).toBe(`promotion-legacy-acme-dev-to-prod-${requested.body.id}`);
    await api.status(owner, requested.body.id, 'Blocked');
    expect(
      (await api.http.post(`/api/v2/promotions/${requested.body.id}/cancel`, { token: owner, body: {} })).status,
    ).toBe(200);

    // A promotion as rows were written before: `promotion-<id>`, its workflow started by the reconciler from the row.
    const db = platform.services.db;
    const model = (await db('promotions').where({ id: requested.body.id }).first()) as {
      organization_id: string;
      project_id: string;
      moves: Parameters<typeof insertPromotion>[1]['moves'];
      created_by: string;
      created_by_actor: string;
    };
    const id = randomUUID();
    await db.transaction((trx) =>
      insertPromotion(trx, {
        id,
        organization_id: model.organization_id,
        project_id: model.project_id,
        source_environment: 'dev',
        target_environment: 'prod',
        moves: model.moves,
        workflow_id: `promotion-${id}`,
        created_by: model.created_by,
        created_by_actor: model.created_by_actor,
      }),
    );
    await db('promotions')
      .where({ id })
      .update({ created_at: db.raw("now() - interval '1 hour'") });
    expect(await platform.services.promotions.reconcile()).toBe(1);
    const blocked = await api.status(owner, id, 'Blocked');
    expect(blocked.workflowId).toBe(`promotion-${id}`);
    const approved = await api.http.post(`/api/v2/promotions/${id}/approve`, {
      token: org.members.admin!.token,
      body: { comment: 'old id' },
    });
    expect(approved.status).toBe(200);
    const syncing = await api.status(owner, id, 'Syncing');
    expect(syncing.commitSha).toMatch(/^[0-9a-f]{40}$/);
    const history = await api.http.get<{ workflowId: string; timeline: unknown[] }>(
      `/api/v2/promotions/${id}/history`,
      {
        token: owner,
      },
    );
    expect([history.status, history.body.workflowId]).toEqual([200, `promotion-${id}`]);
    expect(history.body.timeline.length).toBeGreaterThan(0);
    await platform.services.temporal.workflow.getHandle(`promotion-${id}`).describe();
  });

  it('refuses unknown environments, tenants and services with 400 and answers 404 across organizations', async () => {
    const bad = await api.request(owner, 'shop', { sourceEnvironment: 'dev', targetEnvironment: 'staging' });
    expect([bad.status, errorOf(bad.body)]).toEqual([400, 'environments not in this project: staging']);
    const tenant = await api.request(owner, 'shop', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
      tenants: ['initech'],
    });
    expect([tenant.status, errorOf(tenant.body)]).toEqual([400, 'tenants not in this project: initech']);
    const viewer = await api.request(org.members.viewer!.token, 'shop', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
    });
    expect(viewer.status).toBe(403);
    const other = await makeOrg(platform, ['owner']);
    const list = await api.http.get('/api/v2/projects/shop/promotions', { token: owner });
    const id = (list.body as { items: { id: string }[] }).items[0]!.id;
    const cross = await api.http.get(`/api/v2/promotions/${id}`, { token: other.members.owner!.token });
    expect(cross.status).toBe(404);
  });
});
