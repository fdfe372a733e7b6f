/**
 * Issue 26 item 8: removing an environment a release waits in answers 409 naming the release; with ?cancel=true the
 * release ends Cancelled through its workflow, then the environment goes and its files leave the repository in one
 * audited commit of their own; no other commit deletes them.
 */
import fs from 'node:fs/promises';
import { renderDigest, type CommitOperation } from '../../../src/gitops/commit-path';
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

describe('removing an environment', () => {
  it('answers 409 naming a waiting release, and with cancel=true cancels it and commits the removal once', async () => {
    const tenants = await makeProject(platform, owner, 'shop', ['acme']);
    expect((await api.http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(
      200,
    );
    const policy = await api.http.post('/api/v2/approval-policies', {
      token: owner,
      body: {
        project: 'shop',
        name: 'prod needs one',
        environments: ['prod'],
        requiredApprovals: 1,
        eligibleApprovers: { roles: ['member'] },
      },
    });
    expect(policy.status).toBe(201);
    const created = await api.create(org.members.member!.token, 'shop', {
      environment: 'prod',
      tenantId: tenants.acme,
      title: 'web 5.0.0',
      changes: [{ workload: 'web', tag: '5.0.0' }],
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await api.status(owner, id, 'PendingApproval');

    const usage = await api.http.get(`/api/v2/projects/shop/environments/prod/usage`, { token: owner });
    expect([usage.status, usage.body]).toEqual([200, expect.objectContaining({ releases: [id], promotions: [] })]);
    const refused = await api.http.delete<{ error: string }>('/api/v2/projects/shop/environments/prod', {
      token: owner,
    });
    expect([refused.status, refused.body.error]).toEqual([
      409,
      `environment prod is in use by releases ${id}; remove it with cancel=true to cancel them first`,
    ]);
    expect((await api.http.get('/api/v2/projects/shop/environments/prod', { token: owner })).status).toBe(200);

    const before = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
    clones.push(before.dir);
    const head = (await gitCli(['rev-parse', 'HEAD'], before.dir)).stdout.trim();

    const removed = await api.http.delete<{ commit: string }>('/api/v2/projects/shop/environments/prod?cancel=true', {
      token: owner,
    });
    expect(removed.status).toBe(200);
    expect((await api.get(owner, id)).status).toBe('Cancelled');
    expect((await api.http.get('/api/v2/projects/shop/environments/prod', { token: owner })).status).toBe(404);

    const after = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
    clones.push(after.dir);
    const log = (await gitCli(['log', '--format=%H %P', `${head}..HEAD`], after.dir)).stdout.trim().split('\n');
    expect(log).toEqual([`${removed.body.commit} ${head}`]);
    const files = await filesOf(after.dir);
    expect(files.filter((f) => f.includes('/prod/'))).toEqual([]);
    expect(files.filter((f) => f.includes('/dev/')).length).toBeGreaterThan(0);
    const { stdout: show } = await gitCli(['show', '--stat', '--format=%s', 'HEAD'], after.dir);
    expect(show).toContain('Remove environment prod from shop');

    const audit = await api.http.get<{ items: { action: string; gitCommitSha: string | null }[] }>(
      '/api/v2/audit-logs?action=git.files.commit&limit=100',
      { token: owner },
    );
    expect(audit.body.items).toEqual([expect.objectContaining({ gitCommitSha: removed.body.commit })]);
  });

  it('refuses TargetGone, committing nothing, a release commit whose environment left the project', async () => {
    const project = (await api.http.get<{ id: string }>('/api/v2/projects/shop', { token: owner })).body;
    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
    clones.push(clone.dir);
    const head = (await gitCli(['rev-parse', 'HEAD'], clone.dir)).stdout.trim();
    // What an in-flight release prepared before its environment went: the digest of an empty rendering.
    const operation: CommitOperation = {
      type: 'release',
      tenant: 'acme',
      environment: 'prod',
      changes: [],
      digest: renderDigest(new Map()),
    };
    await expect(
      commitAsWorkflow(platform, { organizationId: org.org.id, projectId: project.id }, 'gone-target-1', operation),
    ).rejects.toMatchObject({ type: 'TargetGone', message: 'environment prod is no longer part of the project' });
    const after = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
    clones.push(after.dir);
    expect((await gitCli(['rev-parse', 'HEAD'], after.dir)).stdout.trim()).toBe(head);
  });
});
