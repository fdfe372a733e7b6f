// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import fs from 'node:fs/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import path from 'node:path';
import { createReleaseActivities } from '../../../activities/release';
import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { releaseClient, type ReleaseBody } from './release-harness';

/**
 * Releases end to end over HTTP with the real Temporal dev server, PostgreSQL and git: auto-deploy and manual deploy,
 * the validation gate, one deployment at a time per target, idempotent creation, cancel, sync reports, history.
 */
let platform: TestPlatform;
let api: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let other: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let member: string;
let viewer: string;
let tenants: Record<string, string>;

beforeAll(async () => {
  platform = await startTestPlatform({
    env: { RELEASE_QUEUE_POLL: '1s', TEMPORAL_UI_URL: 'http://temporal-ui.example.test:8233/' },
  });
  api = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'member', 'viewer']);
  other = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  member = org.members.member!.token;
  viewer = org.members.viewer!.token;
  tenants = await makeProject(platform, owner, 'shop', ['acme', 'globex']);
}, 120_000);
afterAll(() => platform.close());

async function fileAt(sha: string, file: string, project = 'shop'): Promise<string> {
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, project, owner));
  expect(clone.ok).toBe(true);
  await gitCli(['checkout', '--quiet', sha], clone.dir);
  return fs.readFile(path.join(clone.dir, file), 'utf8');
}

/** The files a commit changed, from the repository itself. */
async function changedFiles(sha: string): Promise<string[]> {
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  expect(clone.ok).toBe(true);
  const out = await gitCli(['show', '--name-only', '--format=', sha], clone.dir);
  return out.stdout.split('\n').filter(Boolean);
}

async function deployed(release: ReleaseBody): Promise<ReleaseBody> {
  const syncing = await api.status(owner, release.id, 'Syncing');
  expect(syncing.commitSha).toMatch(/^[0-9a-f]{40}$/);
  return syncing;
}

describe('a release of a project that auto-deploys', () => {
  it('validates, commits the change through the one commit path, and turns Healthy on a sync report', async () => {
    const created = await api.create(member, 'shop', {
      environment: 'dev',
      tenantId: tenants.acme,
      title: 'web 1.1.0',
      changes: [{ workload: 'web', tag: '1.1.0', replicas: 2, variables: { FEATURE_X: 'on' } }],
    });
    expect(created.status).toBe(201);
    const syncing = await deployed(created.body);
    expect(syncing.validation?.summary.errors).toBe(0);

    const deployment = await fileAt(syncing.commitSha!, 'tenants/acme/dev/web/deployment.yaml');
    expect(deployment).toContain('registry.example.com/shop/web:1.1.0');
    expect(deployment).toMatch(/replicas: 2/);
    expect(await fileAt(syncing.commitSha!, 'tenants/acme/dev/web/configmap.yaml')).toContain('FEATURE_X: "on"');
    // Other targets are untouched.
    // The commit touches the released target only (read from the commit itself, so a wrong path cannot pass).
    const touched = await changedFiles(syncing.commitSha!);
    expect(touched).toContain('tenants/acme/dev/web/deployment.yaml');
    expect(touched.filter((file) => file.startsWith('tenants/') && !file.startsWith('tenants/acme/dev/'))).toEqual([]);

    // A report of another revision is stored as the service's status but does not concern the release.
    const wrong = await api.reportSync(owner, created.body.id, 'f'.repeat(40));
    expect(wrong.status).toBe(200);
    expect(wrong.body.status).toBe('Syncing');
    // Nor is it shown as the release's sync: only a report at its commit is.
    expect(wrong.body.sync).toEqual({ status: null, health: null, service: null, reportedAt: null });
    const healthy = await api.reportSync(owner, created.body.id, syncing.commitSha!);
    expect(healthy.status).toBe(200);
    expect(healthy.body.status).toBe('Healthy');
    expect(healthy.body.sync).toEqual({ status: 'Synced', health: 'Healthy', service: null, reportedAt: null });

    // Ops reach the release from its workflow in the Temporal UI: the details name a route that answers.
    const described = await platform.services.temporal.workflow.getHandle(created.body.workflowId).describe();
    const route = /GET (\/api\/\S+)`/.exec((await described.staticDetails()) ?? '')?.[1];
    expect(route).toBe(`/api/v2/releases/${created.body.id}`);
    expect((await api.http.get(route!, { token: owner })).status).toBe(200);

    // The audit chain of the release shares projectId, and every entry from the commit on its SHA.
    const audit = await api.http.get<{ items: { action: string; projectId: string; gitCommitSha: string | null }[] }>(
      `/api/v2/audit-logs?resourceType=release&resourceId=${created.body.id}&limit=100`,
      { token: owner },
    );
    const actions = audit.body.items.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'release.create',
        'release.validate',
        'release.deploy',
        'release.sync.wait',
        'release.healthy',
      ]),
    );
    const projectIds = new Set(audit.body.items.map((e) => e.projectId));
    expect(projectIds.size).toBe(1);
    const afterCommit = audit.body.items.filter((e) =>
      ['release.deploy', 'release.sync.wait', 'release.sync.report', 'release.healthy'].includes(e.action),
    );
    expect(afterCommit.length).toBeGreaterThanOrEqual(4);
    expect(new Set(afterCommit.map((e) => e.gitCommitSha))).toEqual(new Set([syncing.commitSha]));

    const history = await api.http.get<{
      timeline: { step: string; actor: string | null; commitSha: string | null }[];
      nextCursor: string | null;
    }>(`/api/v2/releases/${created.body.id}/history?limit=100`, { token: viewer });
    expect(history.status).toBe(200);
    const steps = history.body.timeline.map((t) => t.step);
    // Nothing to wait for before its commit: validated and its target taken in one step (issue 46).
    expect(steps).toEqual(
      expect.arrayContaining(['created', 'validate, take the target', 'commit', 'committed', 'request reportSync']),
    );
    expect(steps).not.toContain('take the target');
    expect(history.body.timeline.find((t) => t.step === 'created')?.actor).toBe(org.members.member!.user.email);
    // The controller webhook reports as the system, naming its subsystem.
    expect(history.body.timeline.find((t) => t.step === 'request reportSync')?.actor).toBe('cdcontroller-webhook');
    // Newest first: the latest step carries the commit, the creation none.
    expect(history.body.timeline.at(0)?.commitSha).toBe(syncing.commitSha);
    expect(history.body.timeline.at(-1)).toMatchObject({ step: 'created', commitSha: null });
    expect(history.body.nextCursor).toBeNull();

    // The same timeline in pages of two, each read from the server in bounded pages, following the cursor.
    const paged: { step: string }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await api.http.get<{ timeline: { step: string }[]; nextCursor: string | null }>(
        `/api/v2/releases/${created.body.id}/history?limit=2${query}`,
        { token: viewer },
      );
      expect([page.status, page.body.timeline.length <= 2]).toEqual([200, true]);
      paged.push(...page.body.timeline);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(history.body.timeline);
    for (const bad of ['limit=0', 'limit=100000', 'cursor=bm90LWEtY3Vyc29y', 'page=2']) {
      const refused = await api.http.get<{ error: string }>(`/api/v2/releases/${created.body.id}/history?${bad}`, {
        token: viewer,
      });
      expect([bad, refused.status]).toEqual([bad, 400]);
    }

    // Ops find the workflow in the Temporal UI by its search attributes, and the release links to it.
    const query = `ReleaseId = "${created.body.id}" AND ProjectId = "${syncing.projectId}" AND ResourceStatus = "Healthy"`;
    const found = await eventually(async () => {
      const ids: string[] = [];
      for await (const wf of platform.services.temporal.workflow.list({ query })) ids.push(wf.workflowId);
      return ids.length > 0 ? ids : null;
    });
    expect(found).toEqual([`release-shop-acme-dev-${created.body.id}`]);
    expect(syncing.links.workflow).toBe(
      `http://temporal-ui.example.test:8233/namespaces/default/workflows/release-shop-acme-dev-${created.body.id}`,
    );
  });

  it('writes the validation of a release once when its prepare activity runs again (a retried attempt)', async () => {
    const created = await api.create(owner, 'shop', {
      environment: 'dev',
      tenantId: tenants.globex,
      title: 'retried prepare',
      changes: [{ workload: 'web', variables: { RETRY: 'yes' } }],
    });
    const syncing = await deployed(created.body);
    const { prepareRelease } = createReleaseActivities(platform.services);
    const again = (await new MockActivityEnvironment().run(prepareRelease, {
      releaseId: created.body.id,
      workflowId: created.body.workflowId,
    })) as Awaited<ReturnType<typeof prepareRelease>>;
    expect(again.blocked).toBe(false);
    const entries = await platform.services
      .db('audit_log')
      .where({ resource_id: created.body.id, action: 'release.validate' })
      .count<{ n: string }[]>('id as n');
    expect(Number(entries[0]!.n)).toBe(1);
    expect((await api.reportSync(owner, created.body.id, syncing.commitSha!)).body.status).toBe('Healthy');
  });

  it('ends Failed when the controller reports degraded health, with a release.fail event', async () => {
    const created = await api.create(owner, 'shop', { environment: 'prod', tenantId: tenants.acme, title: 'degraded' });
    const syncing = await deployed(created.body);
    const failed = await api.reportSync(owner, created.body.id, syncing.commitSha!, 'Degraded');
    expect(failed.body.status).toBe('Failed');
    const events = await platform.services.db('domain_events').where({ type: 'release.fail' }).select('payload');
    expect(events.map((e: { payload: { releaseId: string } }) => e.payload.releaseId)).toContain(created.body.id);
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ environment: 'nope', tenantId: tenants.acme, title: 't' }, /environment nope is not an environment/],
      [
        { environment: 'dev', tenantId: '00000000-0000-4000-8000-000000000000', title: 't' },
        /tenantId 00000000-0000-4000-8000-000000000000 is not a tenant of this project/,
      ],
      [
        { environment: 'dev', tenantId: tenants.acme, title: 't', changes: [{ workload: 'api', tag: '1' }] },
        /workload api not found/,
      ],
      [{ environment: 'dev', tenantId: tenants.acme, title: 't', changes: [{ workload: 'web' }] }, /changes nothing/],
      [{ environment: 'dev', tenantId: tenants.acme }, /invalid request/],
    ];
    const before = await platform.services.db('releases').count<{ count: string }[]>('id as count');
    for (const [body, message] of cases) {
      const res = await api.create(owner, 'shop', body);
      expect([res.status, (res.body as unknown as { error: string }).error]).toEqual([
        400,
        expect.stringMatching(message),
      ]);
    }
    const after = await platform.services.db('releases').count<{ count: string }[]>('id as count');
    expect(after[0]!.count).toBe(before[0]!.count);
  });
});

describe('a project that does not auto-deploy', () => {
  // A project of its own: nothing here depends on, or changes, what the other tests use.
  let manual: Record<string, string>;
  beforeAll(async () => {
    manual = await makeProject(platform, owner, 'manual', ['acme', 'globex']);
    const res = await api.http.patch('/api/v2/projects/manual/policy', {
      token: owner,
      body: { releases: { autoDeploy: false } },
    });
    expect(res.status).toBe(200);
  });

  it('waits for a deploy call, refuses viewers and a second deploy, and survives a worker restart', async () => {
    const created = await api.create(member, 'manual', {
      environment: 'prod',
      tenantId: manual.globex,
      title: 'manual',
      changes: [{ workload: 'web', tag: '2.0.0' }],
    });
    await api.status(owner, created.body.id, 'AwaitingDeploy');
    expect((await api.http.post(`/api/v2/releases/${created.body.id}/deploy`, { token: viewer })).status).toBe(403);

    await platform.stopWorker();
    await platform.startWorker();
    const deploy = await api.http.post<ReleaseBody>(`/api/v2/releases/${created.body.id}/deploy`, { token: member });
    expect(deploy.status).toBe(200);
    expect(['Deploying', 'Syncing']).toContain(deploy.body.status);
    const again = await api.http.post<{ error: string }>(`/api/v2/releases/${created.body.id}/deploy`, {
      token: member,
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/not waiting for a deploy/);
    const syncing = await deployed(created.body);
    const commits = await api.http.get<{ items: { trailers: Record<string, string> }[] }>(
      '/api/v2/projects/manual/commits?limit=100',
      { token: owner },
    );
    expect(commits.body.items.filter((c) => c.trailers['Release-Id'] === created.body.id)).toHaveLength(1);
    expect((await api.reportSync(owner, created.body.id, syncing.commitSha!)).body.status).toBe('Healthy');
  });

  it('cancels a release that has not been committed, once', async () => {
    const created = await api.create(member, 'manual', {
      environment: 'dev',
      tenantId: manual.globex,
      title: 'to cancel',
    });
    await api.status(owner, created.body.id, 'AwaitingDeploy');
    const cancel = await api.http.post<ReleaseBody>(`/api/v2/releases/${created.body.id}/cancel`, {
      token: member,
      body: { reason: 'wrong tag' },
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('Cancelled');
    const again = await api.http.post(`/api/v2/releases/${created.body.id}/cancel`, { token: member, body: {} });
    expect(again.status).toBe(409);
    expect((await api.http.post(`/api/v2/releases/${created.body.id}/deploy`, { token: member })).status).toBe(409);
  });
});

describe('one deployment at a time per target', () => {
  it('queues a second release of a target behind the first, while another target deploys at once', async () => {
    // A project of its own, so its targets are free whatever the other tests left running.
    const queue = await makeProject(platform, owner, 'queue', ['acme', 'globex']);
    const first = await api.create(owner, 'queue', {
      environment: 'dev',
      tenantId: queue.globex,
      title: 'first',
      changes: [{ workload: 'web', tag: '3.0.0' }],
    });
    const firstSyncing = await deployed(first.body);
    const second = await api.create(owner, 'queue', {
      environment: 'dev',
      tenantId: queue.globex,
      title: 'second',
      changes: [{ workload: 'web', tag: '3.0.1' }],
    });
    const queued = await api.status(owner, second.body.id, 'Queued');
    expect(queued.waitingBehind).toBe(first.body.id);
    expect(queued.statusReason).toContain(first.body.id);

    const parallel = await api.create(owner, 'queue', {
      environment: 'prod',
      tenantId: queue.acme,
      title: 'elsewhere',
      changes: [{ workload: 'web', tag: '3.1.0' }],
    });
    await deployed(parallel.body);
    expect((await api.get(owner, second.body.id)).status).toBe('Queued');

    await api.reportSync(owner, first.body.id, firstSyncing.commitSha!);
    const secondSyncing = await deployed(second.body);
    const log = await gitCli(
      ['log', '--format=%H', `${firstSyncing.commitSha}..${secondSyncing.commitSha}`],
      (await cloneInto(cloneUrl(platform, org.org.slug, 'queue', owner))).dir,
    );
    expect(log.stdout.trim().split('\n')).toContain(secondSyncing.commitSha);
    expect(await fileAt(secondSyncing.commitSha!, 'tenants/globex/dev/web/deployment.yaml', 'queue')).toContain(
      ':3.0.1',
    );
  });
});

describe('the validation gate', () => {
  it('refuses creation on a schema error under block (422 with the result, nothing created) and lets it through under warn', async () => {
    const ids = await makeProject(platform, owner, 'broken', ['acme'], {
      probes: { liveness: { httpGet: { path: 5, port: 8080 } } },
    });
    const db = platform.services.db;
    const project = (await db('projects').where({ organization_id: org.org.id, slug: 'broken' }).first('id')) as {
      id: string;
    };
    const audited = async () =>
      (await db('audit_log').where({ project_id: project.id, resource_type: 'release' })).length;
    const blocked = await api.http.post<{
      error: string;
      validation: { summary: { errors: number }; blocked: boolean; resources: { resource: string }[] };
    }>('/api/v2/projects/broken/releases', {
      token: owner,
      body: { environment: 'dev', tenantId: ids.acme, title: 'bad probe' },
    });
    // Spec: "when validation errors exist, release creation is blocked (default)".
    expect([blocked.status, blocked.body.error]).toEqual([
      422,
      expect.stringMatching(/^release blocked by validation: \d+ error/),
    ]);
    expect(blocked.body.validation.summary.errors).toBeGreaterThan(0);
    expect(blocked.body.validation.blocked).toBe(true);
    expect(blocked.body.validation.resources.map((r) => r.resource)).toContain('Deployment/web');
    expect(await db('releases').where({ project_id: project.id })).toEqual([]);
    expect(await audited()).toBe(0);
    const started: string[] = [];
    for await (const wf of platform.services.temporal.workflow.list({ query: `ProjectId = "${project.id}"` }))
      started.push(wf.workflowId);
    expect(started).toEqual([]);
    const commits = await api.http.get<{ items: unknown[] }>('/api/v2/projects/broken/commits', { token: owner });
    expect(commits.body.items).toHaveLength(0);

    await api.http.patch('/api/v2/projects/broken/policy', { token: owner, body: { validation: { errors: 'warn' } } });
    const warned = await api.create(owner, 'broken', { environment: 'dev', tenantId: ids.acme, title: 'warn only' });
    const through = await deployed(warned.body);
    expect(through.validation?.summary.errors).toBeGreaterThan(0);
  });
});

describe('deprecated apiVersions', () => {
  it('lets a release with only a deprecated apiVersion through with the warning, and blocks it under deprecations: block', async () => {
    const hpa = [
      'apiVersion: autoscaling/v2beta2',
      'kind: HorizontalPodAutoscaler',
      'metadata:',
      '  name: web',
      'spec:',
      '  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }',
      '  minReplicas: 1',
      '  maxReplicas: 3',
    ].join('\n');
    const ids = await makeProject(platform, owner, 'dated', ['acme'], {
      extraManifests: [{ name: 'hpa', content: hpa }],
    });
    const env = await api.http.patch('/api/v2/projects/dated/environments/dev', {
      token: owner,
      body: { kubernetesVersion: '1.25' },
    });
    expect(env.status).toBe(200);
    const created = await api.create(owner, 'dated', { environment: 'dev', tenantId: ids.acme, title: 'old hpa' });
    const syncing = await api.status(owner, created.body.id, 'Syncing');
    expect(syncing.validation?.summary).toMatchObject({ errors: 0, deprecations: 1 });
    const warning = (syncing.validation?.results as { file: string; deprecation: boolean; message: string }[]).find(
      (r) => r.deprecation,
    );
    expect(warning?.file).toBe('tenants/acme/dev/web/extra-hpa.yaml');
    expect(await fileAt(syncing.commitSha!, 'tenants/acme/dev/web/kustomization.yaml', 'dated')).toContain(
      'extra-hpa.yaml',
    );

    await api.http.patch('/api/v2/projects/dated/policy', {
      token: owner,
      body: { validation: { deprecations: 'block' } },
    });
    const blocked = await api.create(owner, 'dated', { environment: 'dev', tenantId: ids.acme, title: 'blocked hpa' });
    expect([blocked.status, (blocked.body as unknown as { error: string }).error]).toEqual([
      422,
      expect.stringMatching(/1 deprecation/),
    ]);
  });
});

describe('Idempotency-Key on create (attack row A-46)', () => {
  const body = () => ({
    environment: 'prod',
    tenantId: tenants.globex,
    title: 'idempotent',
    changes: [{ workload: 'web', tag: '4.0.0' }],
  });

  it('returns the same release for the same key and body, and 422 for another body', async () => {
    const first = await api.create(owner, 'shop', body(), 'release-key-1');
    expect(first.status).toBe(201);
    const retry = await api.create(owner, 'shop', body(), 'release-key-1');
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(first.body.id);
    const changed = await api.create(owner, 'shop', { ...body(), title: 'other' }, 'release-key-1');
    expect(changed.status).toBe(422);
    const rows = await platform.services.db('releases').where({ idempotency_key: 'release-key-1' }).count('id as n');
    expect(Number(rows[0]!.n)).toBe(1);
    const syncing = await deployed(first.body);
    await api.reportSync(owner, first.body.id, syncing.commitSha!);
  });

  it('makes exactly one release of two concurrent identical requests', async () => {
    const results = await Promise.all([
      api.create(owner, 'shop', body(), 'release-key-2'),
      api.create(owner, 'shop', body(), 'release-key-2'),
    ]);
    // The second waits on the first's row: 409 while the first is in flight, or its release (200) once committed.
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200 || s === 409)).toHaveLength(1);
    const rows = await platform.services.db('releases').where({ idempotency_key: 'release-key-2' }).count('id as n');
    expect(Number(rows[0]!.n)).toBe(1);
  });
});

describe('organization scope', () => {
  it('answers another organization 404 for a release id and its actions, and reads a release once a request', async () => {
    const created = await api.create(owner, 'shop', { environment: 'dev', tenantId: tenants.acme, title: 'mine' });
    const outsider = other.members.owner!.token;
    expect((await api.http.get(`/api/v2/releases/${created.body.id}`, { token: outsider })).status).toBe(404);
    // The read answers from the release and project its access check read: one read of each a request. A project of
    // its own and a release at rest (Syncing), so nothing else reads them meanwhile.
    const restingTenants = await makeProject(platform, owner, 'scope-read', ['acme']);
    const { id: projectId } = (await platform.services
      .db('projects')
      .where({ organization_id: org.org.id, slug: 'scope-read' })
      .first('id')) as { id: string };
    const { body: resting } = await api.create(owner, 'scope-read', {
      environment: 'dev',
      tenantId: restingTenants.acme!,
      title: 'read once',
    });
    await api.status(owner, resting.id, 'Syncing');
    const reads: string[] = [];
    const count = (q: { sql: string; bindings?: unknown[] }) => {
      const ours = q.bindings?.includes(resting.id) || q.bindings?.includes(projectId);
      if (ours && /from "releases"|from "projects"/.test(q.sql)) reads.push(q.sql);
    };
    platform.services.db.on('query', count);
    const read = await api.http.get<{ id: string; project: string }>(`/api/v2/releases/${resting.id}`, {
      token: viewer,
    });
    platform.services.db.off('query', count);
    expect(read.status).toBe(200);
    expect([read.body.id, read.body.project]).toEqual([resting.id, 'scope-read']);
    expect(reads.filter((sql) => sql.includes('from "releases"'))).toHaveLength(1);
    expect(reads.filter((sql) => sql.includes('from "projects"'))).toHaveLength(1);
    expect((await api.http.post(`/api/v2/releases/${created.body.id}/deploy`, { token: outsider })).status).toBe(404);
    expect((await api.http.get('/api/v2/projects/shop/releases', { token: outsider })).status).toBe(404);
    const list = await api.http.get<{ items: { id: string }[] }>(
      `/api/v2/projects/shop/releases?tenantId=${tenants.acme}&environment=dev&limit=2`,
      { token: viewer },
    );
    expect(list.status).toBe(200);
    expect(list.body.items[0]?.id).toBe(created.body.id);
  });
});

describe('round trips before the commit (issue 46)', () => {
  /** A project of its own: nothing else reads it meanwhile, and its releases queue behind no other test's. */
  let own: Record<string, string>;
  beforeAll(async () => {
    own = await makeProject(platform, owner, 'round-trips', ['acme']);
  });

  it('reads the project with the gate once in the create call and once in the prepare step; the target from it', async () => {
    const statements: string[] = [];
    const count = (q: { sql: string }) => statements.push(q.sql);
    platform.services.db.on('query', count);
    let created: Awaited<ReturnType<typeof api.create>>;
    let answeredAt: number;
    try {
      created = await api.create(owner, 'round-trips', { environment: 'dev', tenantId: own.acme!, title: 'trips' });
      answeredAt = statements.length;
      await api.status(owner, created.body.id, 'Syncing');
    } finally {
      platform.services.db.off('query', count);
    }
    expect(created.status).toBe(201);
    const reads = (table: string) => statements.filter((sql) => sql.includes(`from "${table}"`));
    // Every read of the project's tenants is its whole load, with its environments and workloads in the statement.
    expect(reads('project_tenants').length).toBeGreaterThan(0);
    for (const sql of reads('project_tenants')) {
      expect([sql.includes('from "project_environments"'), sql.includes('from "workloads"')]).toEqual([true, true]);
    }
    // The create call's one load carries the freezes and sessions; so does the prepare step's, with the target's
    // previous checked release and the workloads' dependencies.
    const withGate = reads('project_tenants').filter((sql) => sql.includes('from "freeze_switches"'));
    expect(withGate).toHaveLength(2);
    expect(statements.slice(0, answeredAt).filter((sql) => withGate.includes(sql))).toHaveLength(1);
    const prepare = withGate.find((sql) => sql.includes('from "releases"'));
    expect(prepare).toContain('"depends_on"');
    // No select of a single environment, tenant or the workloads' names on the way.
    expect(reads('project_environments').every((sql) => sql.includes('json_agg'))).toBe(true);
    expect(statements.filter((sql) => /^select "name", "depends_on" from "workloads"/.test(sql))).toEqual([]);
  });

  it('refuses a release naming a tenant, environment or workload the project lacks, as before the reads were joined', async () => {
    const catalogue = (await platform.services
      .db('project_tenants')
      .where({ id: own.acme })
      .first('org_tenant_id')) as { org_tenant_id: string };
    const bodies: [Record<string, unknown>, number, string][] = [
      [{ tenantId: 'nobody' }, 400, 'tenantId nobody is not a tenant of this project'],
      [{ environment: 'moon' }, 400, 'environment moon is not an environment of this project'],
      [{ changes: [{ workload: 'ghost', tag: '2.0.0' }] }, 400, 'workload ghost not found in this project'],
      // The tenant by its slug in any case and by its catalogue entry's id names the same tenant.
      [{ tenantId: 'ACME', title: 'by slug' }, 201, ''],
      [{ tenantId: catalogue.org_tenant_id, title: 'by catalogue id' }, 201, ''],
    ];
    for (const [body, status, message] of bodies) {
      const res = await api.create(owner, 'round-trips', {
        environment: 'dev',
        tenantId: own.acme,
        title: 't',
        ...body,
      });
      expect([res.status, status === 400 ? (res.body as unknown as { error: string }).error : '']).toEqual([
        status,
        message,
      ]);
      if (status === 201) expect(res.body.tenant).toBe('acme');
    }
  });
});
