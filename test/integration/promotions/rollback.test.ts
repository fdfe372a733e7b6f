import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';
import { promotionClient } from './promotion-harness';

/** Rollback with preview, the pin it leaves and unpinning, over HTTP with real Temporal, PostgreSQL and git. */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let releases: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = promotionClient(platform);
  releases = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'member', 'viewer']);
  owner = org.members.owner!.token;
}, 120_000);
afterAll(() => platform.close());

interface Preview {
  rollbackTo: { releaseId: string; commitSha: string };
  changes: { workload: string; tag?: string; replicas?: number }[];
  targets: { tenant: string; files: { path: string; status: string; diff: string }[] }[];
}

describe('a rollback of a tenant and environment', () => {
  it('previews the diff to the last Healthy release, commits those files, pins the target until unpinned', async () => {
    const tenants = await makeProject(platform, owner, 'rb', ['acme']);
    const good = await api.releaseToDev(owner, 'rb', tenants.acme!, '1.1.0');
    const bad = await api.releaseToDev(owner, 'rb', tenants.acme!, '1.2.0');
    expect([good.status, bad.status]).toEqual(['Healthy', 'Healthy']);
    const target = `/api/v2/tenants/${tenants.acme}/envs/dev`;

    const preview = await api.http.post<Preview>(`${target}/rollback/preview`, {
      token: org.members.viewer!.token,
      body: {},
    });
    expect(preview.status).toBe(200);
    expect(preview.body.rollbackTo).toMatchObject({ releaseId: good.id, commitSha: good.commitSha });
    expect(preview.body.changes).toEqual([expect.objectContaining({ workload: 'web', tag: '1.1.0', replicas: 1 })]);
    const deployment = preview.body.targets[0]!.files.find((f) => f.path === 'tenants/acme/dev/web/deployment.yaml');
    expect(deployment?.status).toBe('modified');
    expect(deployment?.diff).toContain('-');
    expect(deployment?.diff).toMatch(/^-.*web:1\.2\.0$/m);
    expect(deployment?.diff).toMatch(/^\+.*web:1\.1\.0$/m);

    expect((await api.http.post(`${target}/rollback`, { token: org.members.viewer!.token, body: {} })).status).toBe(
      403,
    );
    // A rollback says why: without a reason (or with blanks only) nothing starts.
    for (const body of [{}, { reason: '   ' }]) {
      const refused = await api.http.post(`${target}/rollback`, { token: org.members.member!.token, body });
      expect([refused.status, refused.body]).toEqual([
        400,
        { error: 'reason is required: say why you roll back (it is kept in the audit log)' },
      ]);
    }
    const rollback = await api.http.post<{ id: string; kind: string; rollbackOf: string }>(`${target}/rollback`, {
      token: org.members.member!.token,
      body: { reason: 'checkout broken' },
    });
    expect(rollback.status).toBe(201);
    expect(rollback.body).toMatchObject({ kind: 'rollback', rollbackOf: good.id });
    // Its workflow reads as a rollback of its target in the Temporal UI's list (issue 50), and runs under that id.
    const started = await api.http.get<{ workflowId: string }>(`/api/v2/releases/${rollback.body.id}`, {
      token: owner,
    });
    expect(started.body.workflowId).toBe(`rollback-rb-acme-dev-${rollback.body.id}`);
    await platform.services.temporal.workflow.getHandle(started.body.workflowId).describe();
    // A second one while the first runs would re-deploy what the first rolls back: refused, naming the first.
    const second = await api.http.post<{ error: string }>(`${target}/rollback`, {
      token: org.members.member!.token,
      body: { reason: 'checkout broken' },
    });
    expect([second.status, second.body.error]).toEqual([
      409,
      expect.stringContaining(`a rollback of acme/dev is already in progress (release ${rollback.body.id}`),
    ]);
    const syncing = await releases.status(owner, rollback.body.id, 'Syncing');

    // The rollback commit restores the files of the Healthy release.
    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'rb', owner));
    for (const file of ['deployment.yaml', 'configmap.yaml']) {
      const path = `tenants/acme/dev/web/${file}`;
      const restored = await gitCli(['show', `${syncing.commitSha}:${path}`], clone.dir);
      const then = await gitCli(['show', `${good.commitSha}:${path}`], clone.dir);
      expect(restored.stdout).toBe(then.stdout);
    }

    const pin = await api.http.get<{ reason: string; releaseId: string }>(`${target}/pin`, { token: owner });
    expect(pin.status).toBe(200);
    expect(pin.body).toMatchObject({ releaseId: rollback.body.id, reason: `rolled back to release ${good.id}` });
    await releases.reportSync(owner, rollback.body.id, syncing.commitSha!);
    await releases.status(owner, rollback.body.id, 'Healthy');

    const audit = await api.http.get<{ items: { action: string; details: { reason?: string } }[] }>(
      `/api/v2/audit-logs?resourceType=release&resourceId=${rollback.body.id}&limit=100`,
      { token: owner },
    );
    expect(audit.body.items.map((e) => e.action)).toEqual(
      expect.arrayContaining(['rollback.initiate', 'release.deploy', 'target.pin', 'rollback.complete']),
    );
    expect(audit.body.items.find((e) => e.action === 'rollback.initiate')?.details.reason).toBe('checkout broken');

    // A bulk update skips the pinned target and says why, until someone unpins it.
    const bulk = () =>
      api.http.post<{ commit: string | null; skipped: { tenant: string; environment: string; reason: string }[] }>(
        '/api/v2/projects/rb/bulk-update',
        { token: owner, body: { workload: 'web', tag: '1.3.0', pairs: [{ tenant: 'acme', environment: 'dev' }] } },
      );
    const skipped = await bulk();
    expect(skipped.status).toBe(200);
    expect(skipped.body.commit).toBeNull();
    expect(skipped.body.skipped).toEqual([
      { tenant: 'acme', environment: 'dev', reason: `pinned: rolled back to release ${good.id}` },
    ]);

    expect((await api.http.delete(`${target}/pin`, { token: org.members.member!.token })).status).toBe(403);
    expect((await api.http.delete(`${target}/pin`, { token: owner })).status).toBe(204);
    expect((await api.http.get(`${target}/pin`, { token: owner })).status).toBe(404);
    const unpinned = await api.http.get<{ items: { action: string }[] }>(
      `/api/v2/audit-logs?action=target.unpin&limit=10`,
      { token: owner },
    );
    expect(unpinned.body.items.length).toBe(1);
    const applied = await bulk();
    expect(applied.body.skipped).toEqual([]);
    expect(applied.body.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('answers 409 when there is no earlier Healthy release, and 404 for another organization', async () => {
    const tenants = await makeProject(platform, owner, 'fresh', ['acme']);
    const preview = await api.http.post(`/api/v2/tenants/${tenants.acme}/envs/dev/rollback/preview`, {
      token: owner,
      body: {},
    });
    expect(preview.status).toBe(409);
    const other = await makeOrg(platform, ['owner']);
    const cross = await api.http.post(`/api/v2/tenants/${tenants.acme}/envs/dev/rollback/preview`, {
      token: other.members.owner!.token,
      body: {},
    });
    expect(cross.status).toBe(404);
  });
});
