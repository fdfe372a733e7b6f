import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { releaseClient } from './release-harness';

/**
 * Releases under governance, over HTTP with the real Temporal dev server, PostgreSQL and git: a one-approval policy
 * (self-approval refused, approval by another member, deploy, commit in a fresh clone, Healthy on a sync report,
 * audit chain, history with actors, a worker restart between approval and deploy), and manifest policies (an enforce
 * rule blocks, an audit rule reports).
 */
let platform: TestPlatform;
let api: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer']);
  owner = org.members.owner!.token;
}, 120_000);
afterAll(() => platform.close());

const errorOf = (body: unknown) => (body as { error?: string }).error ?? '';

describe('a release under a one-approval policy', () => {
  it('refuses self-approval, is approved by another member, deployed after a worker restart, committed and Healthy', async () => {
    const member = org.members.member!;
    const admin = org.members.admin!;
    const tenants = await makeProject(platform, owner, 'gov', ['acme']);
    await api.http.patch('/api/v2/projects/gov/policy', { token: owner, body: { releases: { autoDeploy: false } } });
    const policy = await api.http.post('/api/v2/approval-policies', {
      token: owner,
      body: {
        project: 'gov',
        name: 'prod needs one',
        environments: ['prod'],
        requiredApprovals: 1,
        eligibleApprovers: { roles: ['member'] },
      },
    });
    expect(policy.status).toBe(201);

    const created = await api.create(member.token, 'gov', {
      environment: 'prod',
      tenantId: tenants.acme,
      title: 'web 5.0.0',
      changes: [{ workload: 'web', tag: '5.0.0' }],
    });
    expect(created.status).toBe(201);
    const pending = await api.status(owner, created.body.id, 'PendingApproval');
    expect(pending.approvals).toMatchObject({ received: 0 });

    const early = await api.http.post(`/api/v2/releases/${created.body.id}/deploy`, { token: member.token });
    expect([early.status, errorOf(early.body)]).toEqual([
      409,
      'release is waiting for approvals; it cannot be deployed yet',
    ]);
    const self = await api.http.post(`/api/v2/releases/${created.body.id}/approve`, { token: member.token, body: {} });
    expect([self.status, errorOf(self.body)]).toEqual([403, 'you cannot approve your own request']);
    const viewer = await api.http.post(`/api/v2/releases/${created.body.id}/approve`, {
      token: org.members.viewer!.token,
      body: {},
    });
    expect(viewer.status).toBe(403);

    const approved = await api.http.post<{ status: string }>(`/api/v2/releases/${created.body.id}/approve`, {
      token: admin.token,
      body: { comment: 'looks good' },
    });
    expect([approved.status, approved.body.status]).toEqual([200, 'AwaitingDeploy']);
    const twice = await api.http.post(`/api/v2/releases/${created.body.id}/approve`, { token: admin.token, body: {} });
    expect(twice.status).toBe(409);

    // The worker goes away between approval and deploy, and comes back.
    await platform.stopWorker();
    await platform.startWorker();
    const deploy = await api.http.post(`/api/v2/releases/${created.body.id}/deploy`, { token: member.token });
    expect(deploy.status).toBe(200);
    const syncing = await api.status(owner, created.body.id, 'Syncing');
    const sha = syncing.commitSha!;

    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'gov', owner));
    expect(clone.ok).toBe(true);
    expect((await gitCli(['rev-parse', 'HEAD'], clone.dir)).stdout.trim()).toBe(sha);
    const trailers = (await gitCli(['log', '--format=%(trailers:key=Release-Id,valueonly)'], clone.dir)).stdout;
    expect(trailers.split('\n').filter((t) => t.trim() === created.body.id)).toHaveLength(1);
    expect((await gitCli(['show', `${sha}:tenants/acme/prod/web/deployment.yaml`], clone.dir)).stdout).toContain(
      ':5.0.0',
    );

    expect((await api.reportSync(owner, created.body.id, sha)).body.status).toBe('Healthy');

    const audit = await api.http.get<{
      items: { action: string; actor: string; projectId: string; gitCommitSha: string | null }[];
    }>(`/api/v2/audit-logs?resourceType=release&resourceId=${created.body.id}&limit=100`, { token: owner });
    const byAction = new Map(audit.body.items.map((e) => [e.action, e]));
    expect(byAction.get('release.create')?.actor).toBe(member.user.email);
    expect(byAction.get('release.approve')?.actor).toBe(admin.user.email);
    expect(byAction.get('release.deploy')?.actor).toBe(member.user.email);
    expect(new Set(audit.body.items.map((e) => e.projectId)).size).toBe(1);
    for (const action of ['release.deploy', 'release.sync.wait', 'release.healthy']) {
      expect([action, byAction.get(action)?.gitCommitSha]).toEqual([action, sha]);
    }

    const history = await api.http.get<{ timeline: { step: string; actor: string | null }[] }>(
      `/api/v2/releases/${created.body.id}/history`,
      { token: owner },
    );
    const step = (name: string) => history.body.timeline.find((t) => t.step === name);
    expect(step('created')?.actor).toBe(member.user.email);
    expect(step('request approveRelease')?.actor).toBe(admin.user.email);
    expect(step('approve')?.actor).toBe(admin.user.email);
    expect(step('request deployRelease')?.actor).toBe(member.user.email);
    expect(step('commit')).toBeDefined();
    // Healthy was reported by the controller webhook, a system subsystem.
    expect(step('end Healthy')?.actor).toBe('cdcontroller-webhook');

    const events = await platform.services.db('domain_events').where({ project_id: syncing.projectId }).select('type');
    expect(events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['release.create', 'approval.request', 'release.approve', 'release.deploy']),
    );
  });
});

describe('manifest policies on a release', () => {
  it('blocks on a failed enforce rule and only reports a failed audit rule', async () => {
    const tenants = await makeProject(platform, owner, 'ruled', ['acme']);
    const enforce = await api.http.post<{ id: string }>('/api/v2/policies', {
      token: owner,
      body: {
        project: 'ruled',
        name: 'registries',
        mode: 'enforce',
        rules: [{ type: 'allowed-registries', id: 'ghcr-only', registries: ['ghcr.io'] }],
      },
    });
    expect(enforce.status).toBe(201);
    await api.http.post('/api/v2/policies', {
      token: owner,
      body: {
        project: 'ruled',
        name: 'labels',
        mode: 'audit',
        rules: [{ type: 'required-labels', id: 'team', labels: ['team'] }],
      },
    });

    const blocked = await api.create(owner, 'ruled', {
      environment: 'dev',
      tenantId: tenants.acme,
      title: 'wrong registry',
    });
    const release = await api.status(owner, blocked.body.id, 'Blocked');
    expect(release.statusReason).toMatch(/^policy: .*ghcr-only/);
    expect(release.commitSha).toBeNull();

    await api.http.patch('/api/v2/projects/ruled/workloads/web', {
      token: owner,
      body: { image: { repository: 'ghcr.io/shop/web', tag: '1.0.0' } },
    });
    const through = await api.create(owner, 'ruled', {
      environment: 'dev',
      tenantId: tenants.acme,
      title: 'right registry',
    });
    const syncing = await api.status(owner, through.body.id, 'Syncing');
    const report = JSON.stringify(syncing.policies);
    expect(report).toContain('"passed":false');
    expect(report).toContain('team');
    const events = await platform.services
      .db('domain_events')
      .where({ type: 'policy.violation.detect' })
      .select('payload');
    expect(events.map((e: { payload: { releaseId: string } }) => e.payload.releaseId)).toEqual(
      expect.arrayContaining([blocked.body.id, through.body.id]),
    );
  });
});
