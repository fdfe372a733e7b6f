/**
 * Issue 26 item 8 for environments, tenants, workloads and agent bindings, one mechanism (src/environment-removal/target-removal.ts):
 * removing one a release waits on answers 409 naming the release (and a freeze naming the tenant); with ?cancel=true
 * the release ends Cancelled through its workflow, the freeze loses the tenant, and the removal is one audited commit
 * of its own (a binding has no files: its new destinations go with the next generate); a release still committing
 * for a removed environment or workload is refused TargetGone and commits nothing. A catalogue tenant or environment
 * (DELETE /api/v2/org/...) goes the same way from every project using it: one removal commit per project.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';
import { renderDigest } from '../../../src/gitops/commit-path';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { releaseClient } from '../releases/release-harness';
import { cloneInto, cloneUrl, commitAsWorkflow, filesOf, gitCli, makeProject } from './gitops-harness';

let platform: TestPlatform;
let api: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
const clones: string[] = [];

beforeAll(async () => {
  platform = await startTestPlatform();
  api = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'member']);
  owner = org.members.owner!.token;
}, 120_000);
afterAll(async () => {
  await Promise.all(clones.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  await platform.close();
});

async function clone(project: string) {
  const c = await cloneInto(cloneUrl(platform, org.org.slug, project, owner));
  clones.push(c.dir);
  return c.dir;
}

/** A generated project whose release of `web` for `tenantId` in prod waits for an approval. */
async function waitingRelease(project: string, tenantId: string): Promise<string> {
  const generated = await api.http.post(`/api/v2/projects/${project}/delivery/generate`, { token: owner, body: {} });
  expect(generated.status).toBe(200);
  const policy = await api.http.post('/api/v2/approval-policies', {
    token: owner,
    body: {
      project,
      name: 'prod needs one',
      environments: ['prod'],
      requiredApprovals: 1,
      eligibleApprovers: { roles: ['member'] },
    },
  });
  expect(policy.status).toBe(201);
  const created = await api.create(org.members.member!.token, project, {
    environment: 'prod',
    tenantId,
    title: 'web 5.0.0',
    changes: [{ workload: 'web', tag: '5.0.0' }],
  });
  expect(created.status).toBe(201);
  await api.status(owner, created.body.id, 'PendingApproval');
  return created.body.id;
}

/** Removing `target` is refused 409 with `refusal` first, nothing removed; with ?cancel=true the release ends Cancelled. */
async function refuseThenCancel(target: string, release: string, refusal: string) {
  const refused = await api.http.delete<{ error: string }>(target, { token: owner });
  expect([refused.status, refused.body.error]).toEqual([409, refusal]);
  expect((await api.get(owner, release)).status).toBe('PendingApproval');
  const removed = await api.http.delete<{ commit: string | null }>(`${target}?cancel=true`, { token: owner });
  expect(removed.status).toBe(200);
  expect((await api.get(owner, release)).status).toBe('Cancelled');
  return removed.body.commit;
}

/** `refuseThenCancel`, then the removal is the one commit after the head before, titled `title` and audited. */
async function removeOnce(project: string, target: string, release: string, refusal: string, title: string) {
  const head = (await gitCli(['rev-parse', 'HEAD'], await clone(project))).stdout.trim();
  const commit = await refuseThenCancel(target, release, refusal);
  const dir = await clone(project);
  const log = (await gitCli(['log', '--format=%H %P %s', `${head}..HEAD`], dir)).stdout.trim().split('\n');
  expect(log).toEqual([`${commit} ${head} ${title}`]);
  const audit = await api.http.get<{ items: { gitCommitSha: string | null }[] }>(
    '/api/v2/audit-logs?action=git.files.commit&limit=100',
    { token: owner },
  );
  expect(audit.body.items).toContainEqual(expect.objectContaining({ gitCommitSha: commit }));
  return dir;
}

/** A release's commit into acme/prod, as its workflow prepared it. */
const goneRelease = { type: 'release' as const, tenant: 'acme', environment: 'prod' };

async function target(project: string) {
  const { id } = (await api.http.get<{ id: string }>(`/api/v2/projects/${project}`, { token: owner })).body;
  return { organizationId: org.org.id, projectId: id };
}

const usedBy = (what: string, uses: string) =>
  `${what} is in use by ${uses}; remove it with cancel=true to cancel them first`;

describe('safe removal', () => {
  it('of an environment: 409 naming its release; cancel=true cancels it and commits the removal once', async () => {
    const tenants = await makeProject(platform, owner, 'hall', ['acme']);
    const release = await waitingRelease('hall', tenants.acme!);
    const usage = await api.http.get('/api/v2/projects/hall/environments/prod/usage', { token: owner });
    expect([usage.status, usage.body]).toEqual([200, expect.objectContaining({ releases: [release], promotions: [] })]);

    const dir = await removeOnce(
      'hall',
      '/api/v2/projects/hall/environments/prod',
      release,
      usedBy('environment prod', `releases ${release}`),
      'Remove environment prod from hall',
    );
    expect((await api.http.get('/api/v2/projects/hall/environments/prod', { token: owner })).status).toBe(404);
    const files = await filesOf(dir);
    expect(files.filter((f) => f.includes('/prod/'))).toEqual([]);
    expect(files.filter((f) => f.includes('/dev/')).length).toBeGreaterThan(0);

    // What an in-flight release prepared before its environment went: the digest of an empty rendering.
    const head = (await gitCli(['rev-parse', 'HEAD'], dir)).stdout.trim();
    const operation = { ...goneRelease, changes: [], digest: renderDigest(new Map()) };
    await expect(commitAsWorkflow(platform, await target('hall'), 'gone-prod', operation)).rejects.toMatchObject({
      type: 'TargetGone',
      message: 'environment prod is no longer part of the project',
    });
    expect((await gitCli(['rev-parse', 'HEAD'], await clone('hall'))).stdout.trim()).toBe(head);
  });

  it('of a tenant: 409 naming its release and freeze; cancel=true cancels, narrows the freeze, one commit', async () => {
    const tenants = await makeProject(platform, owner, 'shop', ['acme', 'beta']);
    const release = await waitingRelease('shop', tenants.acme!);
    const day = 86_400_000;
    const freeze = await api.http.post<{ id: string }>('/api/v2/projects/shop/freezes', {
      token: owner,
      body: {
        name: 'Launch',
        reason: 'launch week',
        startsAt: new Date(Date.now() + day).toISOString(),
        endsAt: new Date(Date.now() + 2 * day).toISOString(),
        tenants: ['acme', 'beta'],
      },
    });
    expect(freeze.status).toBe(201);

    const dir = await removeOnce(
      'shop',
      `/api/v2/tenants/${tenants.acme}`,
      release,
      usedBy('tenant acme', `releases ${release}; freezes ${freeze.body.id}`),
      'Remove tenant acme from shop',
    );
    expect((await api.http.get(`/api/v2/tenants/${tenants.acme}`, { token: owner })).status).toBe(404);
    const after = await api.http.get<{ tenants: string[] }>(`/api/v2/projects/shop/freezes/${freeze.body.id}`, {
      token: owner,
    });
    expect(after.body.tenants).toEqual(['beta']);
    const files = await filesOf(dir);
    expect(files.filter((f) => f.includes('/acme/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('tenants/beta/prod/web/')).length).toBeGreaterThan(0);
  });

  it('of a workload: 409 naming its release; cancel=true cancels it; its files alone leave; TargetGone after', async () => {
    const tenants = await makeProject(platform, owner, 'mall', ['acme']);
    const api2 = await api.http.post('/api/v2/projects/mall/workloads', {
      token: owner,
      body: { name: 'api', image: { repository: 'registry.example.com/mall/api', tag: '2.0.0' } },
    });
    expect(api2.status).toBe(201);
    const release = await waitingRelease('mall', tenants.acme!);

    const dir = await removeOnce(
      'mall',
      '/api/v2/projects/mall/workloads/web',
      release,
      usedBy('workload web', `releases ${release}`),
      'Remove workload web from mall',
    );
    const files = await filesOf(dir);
    expect(files.filter((f) => f.includes('/web/') || f.endsWith('/web.yaml'))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(['applications/acme/prod/api.yaml', 'tenants/acme/dev/api/kustomization.yaml']),
    );

    const head = (await gitCli(['rev-parse', 'HEAD'], dir)).stdout.trim();
    const operation = { ...goneRelease, changes: [{ workload: 'web', tag: '5.0.0' }], digest: renderDigest(new Map()) };
    await expect(commitAsWorkflow(platform, await target('mall'), 'gone-web', operation)).rejects.toMatchObject({
      type: 'TargetGone',
      message: 'workload web is no longer part of the project',
    });
    expect((await gitCli(['rev-parse', 'HEAD'], await clone('mall'))).stdout.trim()).toBe(head);
  });

  it('of a catalogue tenant: 409 naming the release in its project; cancel=true removes it from each project', async () => {
    const north = await makeProject(platform, owner, 'north', ['zeta']);
    await makeProject(platform, owner, 'south', ['zeta']);
    const release = await waitingRelease('north', north.zeta!);
    const generated = await api.http.post('/api/v2/projects/south/delivery/generate', { token: owner, body: {} });
    expect(generated.status).toBe(200);
    const entry = (await api.http.get<{ catalogueTenantId: string }>(`/api/v2/tenants/${north.zeta}`, { token: owner }))
      .body.catalogueTenantId;
    const heads: Record<string, string> = {};
    for (const p of ['north', 'south']) {
      const dir = await clone(p);
      heads[p] = (await gitCli(['rev-parse', 'HEAD'], dir)).stdout.trim();
      expect((await filesOf(dir)).filter((f) => f.includes('/zeta/')).length).toBeGreaterThan(0);
    }

    const refused = await api.http.delete<{ error: string }>(`/api/v2/org/tenants/${entry}`, { token: owner });
    expect([refused.status, refused.body.error]).toEqual([
      409,
      `tenant zeta is in use in project north (releases ${release}); remove it with cancel=true to cancel them first`,
    ]);
    expect((await api.get(owner, release)).status).toBe('PendingApproval');
    expect((await api.http.get(`/api/v2/org/tenants/${entry}`, { token: owner })).status).toBe(200);

    const removed = await api.http.delete<{ projects: { project: string; commit: string }[] }>(
      `/api/v2/org/tenants/${entry}?cancel=true`,
      { token: owner },
    );
    expect(removed.status).toBe(200);
    expect(removed.body.projects.map((p) => p.project)).toEqual(['north', 'south']);
    expect((await api.get(owner, release)).status).toBe('Cancelled');
    expect((await api.http.get(`/api/v2/org/tenants/${entry}`, { token: owner })).status).toBe(404);
    expect((await api.http.get(`/api/v2/tenants/${north.zeta}`, { token: owner })).status).toBe(404);
    for (const { project, commit } of removed.body.projects) {
      const dir = await clone(project);
      const log = (await gitCli(['log', '--format=%H %P %s', `${heads[project]}..HEAD`], dir)).stdout.trim();
      expect(commit).toMatch(/^[0-9a-f]{40}$/);
      expect(log).toBe(`${commit} ${heads[project]} Remove tenant zeta from ${project}`);
      expect((await filesOf(dir)).filter((f) => f.includes('/zeta/'))).toEqual([]);
    }
    type AuditItems = { items: { gitCommitSha: string | null; resourceId: string | null }[] };
    const audit = (action: string) =>
      api.http.get<AuditItems>(`/api/v2/audit-logs?action=${action}&limit=100`, { token: owner });
    const commits = (await audit('git.files.commit')).body.items.map((i) => i.gitCommitSha);
    expect(commits).toEqual(expect.arrayContaining(removed.body.projects.map((p) => p.commit)));
    expect((await audit('tenant.delete')).body.items.map((i) => i.resourceId)).toContain(entry);
  });

  it('of a catalogue environment: 204 when no project uses it, else removed from each project using it', async () => {
    await makeProject(platform, owner, 'east', []);
    for (const slug of ['qa', 'idle']) {
      const created = await api.http.post('/api/v2/org/environments', { token: owner, body: { slug } });
      expect(created.status).toBe(201);
    }
    const added = await api.http.post('/api/v2/projects/east/environments', {
      token: owner,
      body: { environment: 'qa', kubernetesVersion: '1.31' },
    });
    expect(added.status).toBe(201);
    expect((await api.http.delete('/api/v2/org/environments/idle', { token: owner })).status).toBe(204);
    const removed = await api.http.delete('/api/v2/org/environments/qa', { token: owner });
    // Nothing generated for qa yet: no file leaves, no commit.
    expect([removed.status, removed.body]).toEqual([200, { projects: [{ project: 'east', commit: null }] }]);
    expect((await api.http.get('/api/v2/projects/east/environments/qa', { token: owner })).status).toBe(404);
    expect((await api.http.get('/api/v2/org/environments/qa', { token: owner })).status).toBe(404);
  });

  it('of an agent binding: 409 naming the release into its pair; cancel=true cancels it, commits nothing', async () => {
    const tenants = await makeProject(platform, owner, 'park', ['acme']);
    const cluster = await api.http.post<{ id: string }>('/api/v2/clusters', {
      token: owner,
      body: { name: 'eu-prod' },
    });
    expect(cluster.status).toBe(201);
    const binding = await api.http.post<{ id: string }>('/api/v2/agent-bindings', {
      token: owner,
      body: { clusterId: cluster.body.id, project: 'park', environments: ['prod'], followAgentVersion: false },
    });
    expect(binding.status).toBe(201);
    const release = await waitingRelease('park', tenants.acme!);
    const application = async (dir: string) =>
      load(await fs.readFile(path.join(dir, 'applications/acme/prod/web.yaml'), 'utf8')) as {
        spec: { destination: Record<string, string> };
      };
    expect((await application(await clone('park'))).spec.destination).toEqual({
      name: 'eu-prod',
      namespace: 'acme-prod',
    });

    const head = (await gitCli(['rev-parse', 'HEAD'], await clone('park'))).stdout.trim();
    const commit = await refuseThenCancel(
      `/api/v2/agent-bindings/${binding.body.id}`,
      release,
      usedBy(`agent binding ${binding.body.id}`, `releases ${release}`),
    );
    expect(commit).toBeNull();
    expect((await api.http.get(`/api/v2/agent-bindings/${binding.body.id}`, { token: owner })).status).toBe(404);
    // Nothing committed: the destination change shows in the preview and goes with the next generate.
    expect((await gitCli(['rev-parse', 'HEAD'], await clone('park'))).stdout.trim()).toBe(head);
    type Preview = {
      targets: { files: { path: string; status: string }[] }[];
      projectFiles: { path: string; status: string }[];
      destinations: Record<string, string>[];
    };
    const preview = await api.http.get<Preview>('/api/v2/projects/park/delivery/preview?changedOnly=true', {
      token: owner,
    });
    expect(preview.body.targets.flatMap((t) => t.files)).toEqual([
      expect.objectContaining({ path: 'applications/acme/prod/web.yaml', status: 'modified' }),
    ]);
    expect(preview.body.projectFiles.map((f) => [f.path, f.status])).toEqual([
      ['appprojects/park.yaml', 'modified'],
      ['bootstrap/clusters/eu-prod.yaml', 'deleted'],
      ['bootstrap/clusters/in-cluster.yaml', 'modified'],
      ['bootstrap/per-cluster/eu-prod.yaml', 'deleted'],
    ]);
    expect(preview.body.destinations).toContainEqual({
      tenant: 'acme',
      environment: 'prod',
      cluster: 'in-cluster',
      server: 'https://kubernetes.default.svc',
      namespace: 'acme-prod',
    });
  });
  it('of a catalogue environment in use: 409 naming the release and its project; cancel=true cancels, one commit', async () => {
    const tenants = await makeProject(platform, owner, 'west', ['omega']);
    const release = await waitingRelease('west', tenants.omega!);
    const head = (await gitCli(['rev-parse', 'HEAD'], await clone('west'))).stdout.trim();
    const refused = await api.http.delete<{ error: string }>('/api/v2/org/environments/prod', { token: owner });
    expect([refused.status, refused.body.error]).toEqual([
      409,
      `environment prod is in use in project west (releases ${release}); remove it with cancel=true to cancel them first`,
    ]);
    expect((await api.get(owner, release)).status).toBe('PendingApproval');
    expect((await api.http.get('/api/v2/projects/west/environments/prod', { token: owner })).status).toBe(200);

    const removed = await api.http.delete<{ projects: { project: string; commit: string | null }[] }>(
      '/api/v2/org/environments/prod?cancel=true',
      { token: owner },
    );
    expect(removed.status).toBe(200);
    expect((await api.get(owner, release)).status).toBe('Cancelled');
    const west = removed.body.projects.find((p) => p.project === 'west');
    expect(west?.commit).toMatch(/^[0-9a-f]{40}$/);
    const dir = await clone('west');
    const log = (await gitCli(['log', '--format=%H %P %s', `${head}..HEAD`], dir)).stdout.trim();
    expect(log).toBe(`${west!.commit} ${head} Remove environment prod from west`);
    expect((await filesOf(dir)).filter((f) => f.includes('/prod/'))).toEqual([]);
    expect((await api.http.get('/api/v2/org/environments/prod', { token: owner })).status).toBe(404);
    expect((await api.http.get('/api/v2/projects/west/environments/prod', { token: owner })).status).toBe(404);
  });
});
