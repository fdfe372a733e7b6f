import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { pinTarget } from '../../../src/pins/pin-repository';
import type { ReleasePreview as Preview } from '../../../web/src/api/models';
import { makeProject } from '../gitops/gitops-harness';
import { releaseClient } from './release-harness';

/**
 * POST /api/v2/projects/{slug}/releases/preview over HTTP with the real PostgreSQL, Temporal and git: the validation
 * per resource, manifest policies, approval policies, freezes and pin a release would meet, and the status it would
 * reach first; refused like create for bad input and callers who may not create; changes nothing.
 */
let platform: TestPlatform;
let api: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let other: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let shop: Record<string, string>;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'member', 'viewer']);
  other = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  shop = await makeProject(platform, owner, 'shop', ['acme', 'globex']);
}, 120_000);
afterAll(() => platform.close());

const preview = (token: string, project: string, body: Record<string, unknown>) =>
  api.http.post<Preview>(`/api/v2/projects/${project}/releases/preview`, { token, body });

/** Rows a preview must never add to: releases, audit entries, domain events, commits of the project. */
async function counts(): Promise<number[]> {
  const db = platform.services.db;
  const rows = await Promise.all(
    ['releases', 'audit_log', 'domain_events'].map((table) => db(table).count<{ count: string }[]>('* as count')),
  );
  const commits = await api.http.get<{ items: unknown[] }>('/api/v2/projects/shop/commits', { token: owner });
  return [...rows.map((r) => Number(r[0]!.count)), commits.body.items.length];
}

describe('the release preview', () => {
  it('answers a clean release: no errors, no approvals, the status it would reach, and changes nothing', async () => {
    const before = await counts();
    const res = await preview(org.members.member!.token, 'shop', {
      environment: 'dev',
      tenantId: shop.acme,
      title: 'web 2.0.0',
      changes: [{ workload: 'web', tag: '2.0.0' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tenant: 'acme',
      environment: 'dev',
      outcome: { status: 'Deploying', reason: null },
      validation: { summary: { errors: 0 }, blocked: false },
      policies: { blocked: false },
      approvalPolicies: [],
      freezes: [],
      pin: null,
    });
    expect(await counts()).toEqual(before);
  });

  it('lists validation errors under the resource they belong to and the refused creation they lead to', async () => {
    const ids = await makeProject(platform, owner, 'broken', ['acme'], {
      probes: { liveness: { httpGet: { path: 5, port: 8080 } } },
    });
    const res = await preview(owner, 'broken', { environment: 'dev', tenantId: ids.acme, title: 'bad probe' });
    expect(res.status).toBe(200);
    expect(res.body.outcome).toEqual({ status: 'Refused', reason: expect.stringMatching(/^validation: \d+ error/) });
    const deployment = res.body.validation.resources.find((r) => r.resource === 'Deployment/web');
    expect(deployment?.file).toMatch(/tenants\/acme\/dev\/web\//);
    expect(deployment?.results).toContainEqual(
      expect.objectContaining({ severity: 'error', path: expect.stringContaining('livenessProbe.httpGet.path') }),
    );
  });

  it('names the approval policy, the freeze in force and the pin of the target', async () => {
    const policy = await api.oneApprovalIn(owner, 'shop', 'prod');
    expect(policy.status).toBe(201);
    const body = { environment: 'prod', tenantId: shop.globex, title: 'web 3.0.0' };
    const pending = await preview(owner, 'shop', body);
    expect(pending.body.outcome).toEqual({ status: 'PendingApproval', reason: 'prod needs one' });
    expect(pending.body.approvalPolicies).toEqual([
      { id: expect.any(String), name: 'prod needs one', requiredApprovals: 1 },
    ]);

    const project = (await platform.services
      .db('projects')
      .where({ organization_id: org.org.id, slug: 'shop' })
      .first('id')) as { id: string };
    await pinTarget(platform.services.db, {
      organization_id: org.org.id,
      project_id: project.id,
      tenant_id: shop.globex!,
      tenant_slug: 'globex',
      environment: 'prod',
      reason: 'held for the audit',
      release_id: null,
      pinned_by: null,
      pinned_by_actor: 'test',
    });
    const frozen = await api.http.post('/api/v2/projects/shop/freezes', {
      token: owner,
      body: {
        name: 'Quarter end',
        reason: 'books close',
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        environments: ['prod'],
      },
    });
    expect(frozen.status).toBe(201);
    const res = await preview(owner, 'shop', body);
    expect(res.body.outcome).toEqual({ status: 'Refused', reason: expect.stringContaining('Quarter end') });
    expect(res.body.freezes).toEqual([expect.objectContaining({ name: 'Quarter end', reason: 'books close' })]);
    expect(res.body.pin).toMatchObject({ reason: 'held for the audit' });
    // What the preview announced is what create does.
    const created = await api.create(owner, 'shop', body);
    expect([created.status, (created.body as unknown as { error: string }).error]).toEqual([
      409,
      res.body.outcome.reason,
    ]);
  });

  it('refuses bad input with the same 400 as create, and callers who may not create', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ environment: 'nope', tenantId: shop.acme, title: 't' }, /environment nope is not an environment/],
      [
        { environment: 'dev', tenantId: shop.acme, title: 't', changes: [{ workload: 'api', tag: '1' }] },
        /api not found/,
      ],
      [{ environment: 'dev', tenantId: shop.acme, title: 't', changes: [{ workload: 'web' }] }, /changes nothing/],
      [{ environment: 'dev', tenantId: shop.acme }, /invalid request/],
    ];
    const before = await counts();
    for (const [body, message] of cases) {
      const res = await preview(owner, 'shop', body);
      expect([res.status, (res.body as unknown as { error: string }).error]).toEqual([
        400,
        expect.stringMatching(message),
      ]);
    }
    const body = { environment: 'dev', tenantId: shop.acme, title: 't' };
    expect((await preview(org.members.viewer!.token, 'shop', body)).status).toBe(403);
    expect((await preview(other.members.owner!.token, 'shop', body)).status).toBe(404);
    expect((await api.http.post('/api/v2/projects/shop/releases/preview', { body })).status).toBe(401);
    expect(await counts()).toEqual(before);
  });
});
