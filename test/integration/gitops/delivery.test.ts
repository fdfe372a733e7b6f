import fs from 'node:fs/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { createGitActivities } from '../../../activities/git';
import { applicationName } from '../../../src/delivery-layout/application-name';
import type { CommitRequest } from '../../../src/gitops/commit-path';
import { listDomainEvents } from '../../../src/events/domain-event-repository';
import { cloneInto, cloneUrl, filesOf, gitCli, makeProject } from './gitops-harness';
import { systemCaller } from '../../../src/iam/system-caller';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let other: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let tenantIds: Record<string, string>;

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner', 'viewer']);
  other = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  tenantIds = await makeProject(platform, owner, 'shop', ['acme', 'globex']);
}, 120_000);
afterAll(() => platform.close());

const manifestFiles = (t: string, e: string) =>
  ['configmap.yaml', 'deployment.yaml', 'kustomization.yaml', 'service.yaml'].map((f) => `tenants/${t}/${e}/web/${f}`);

async function headOf(dir: string) {
  return (await gitCli(['rev-parse', 'HEAD'], dir)).stdout.trim();
}

describe('delivery of a project to its hosted repository', () => {
  let firstSha: string;

  it('generates the documented layout, clonable with stock git over HTTP, every manifest valid for its version', async () => {
    const res = await http.post<{ commit: string; created: boolean; validation: { summary: { errors: number } } }>(
      '/api/v2/projects/shop/delivery/generate',
      { token: owner, body: {} },
    );
    expect([res.status, res.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
    expect(res.body.created).toBe(true);
    expect(res.body.validation.summary.errors).toBe(0);
    firstSha = res.body.commit;

    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
    expect([clone.ok, clone.stderr]).toEqual([true, '']);
    expect(await headOf(clone.dir)).toBe(firstSha);
    const expected: string[] = [];
    for (const t of ['acme', 'globex'])
      for (const e of ['dev', 'prod']) expected.push(...manifestFiles(t, e), `applications/${t}/${e}/web.yaml`);
    expected.push('.delivery-validate.json', 'appprojects/shop.yaml', 'bootstrap/appproject.yaml');
    expected.push('bootstrap/clusters/in-cluster.yaml', 'bootstrap/hub.yaml', 'bootstrap/per-cluster/in-cluster.yaml');
    expect(await filesOf(clone.dir)).toEqual(expected.sort());

    const app = await fs.readFile(path.join(clone.dir, 'applications/acme/prod/web.yaml'), 'utf8');
    expect(app).toContain(
      `name: ${applicationName({ project: 'shop', tenant: 'acme', environment: 'prod', service: 'web' })}`,
    );
    expect(app).toContain(`repoURL: ${platform.config.publicUrl}/git/r/${org.org.slug}/shop.git`);
    expect(app).toContain('path: tenants/acme/prod/web');

    for (const [env, version] of [
      ['dev', '1.27'],
      ['prod', '1.31'],
    ] as const) {
      for (const t of ['acme', 'globex']) {
        for (const f of ['configmap.yaml', 'deployment.yaml', 'service.yaml']) {
          const text = await fs.readFile(path.join(clone.dir, `tenants/${t}/${env}/web/${f}`), 'utf8');
          const result = platform.services.validation.validate(text, version);
          expect([t, env, f, result.summary.errors, result.results]).toEqual([t, env, f, 0, expect.any(Array)]);
        }
      }
    }
  });

  it('commits nothing when nothing changed', async () => {
    const res = await http.post<{ commit: string | null; created: boolean }>(
      '/api/v2/projects/shop/delivery/generate',
      {
        token: owner,
        body: {},
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: false, commit: null });
  });

  it('compares environments that differ only in one tenant tag, then bulk-updates three pairs in one commit', async () => {
    // Override names are checked against the project; a tenant is named by slug, id or catalogue id, kept by slug.
    const refused = await Promise.all(
      [{ tenants: { initech: { prod: { tag: '2.0.0' } } } }, { environments: { qa: { replicas: 2 } } }].map(
        (overrides) =>
          http.patch<{ error: string }>('/api/v2/projects/shop/workloads/web', { token: owner, body: { overrides } }),
      ),
    );
    expect(refused.map((r) => [r.status, r.body.error])).toEqual([
      [422, 'overrides name unknown tenant(s) of the project: initech (the project has: acme, globex)'],
      [422, 'overrides name unknown environment(s) of the project: qa (the project has: dev, prod)'],
    ]);
    const patch = await http.patch<{ overrides: unknown }>('/api/v2/projects/shop/workloads/web', {
      token: owner,
      body: { overrides: { tenants: { [tenantIds.acme!]: { prod: { tag: '2.0.0' } } } } },
    });
    expect([patch.status, patch.body.overrides]).toEqual([200, { tenants: { acme: { prod: { tag: '2.0.0' } } } }]);
    expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);

    const compare = await http.get<{ items: { tenant: string; service: string; differences: { type: string }[] }[] }>(
      '/api/v2/projects/shop/compare?from=dev&to=prod',
      { token: owner },
    );
    expect(compare.status).toBe(200);
    expect(compare.body.items).toHaveLength(1);
    expect(compare.body.items[0]).toMatchObject({
      tenant: 'acme',
      service: 'web',
      differences: [
        { type: 'image', from: 'registry.example.com/shop/web:1.0.0', to: 'registry.example.com/shop/web:2.0.0' },
        { type: 'manifests' },
      ],
    });
    // Read current -> proposed: prod (to) as it runs now, then dev's (from) version it would take.
    const manifestDiff = (compare.body.items[0]?.differences[1] as unknown as { diff: string }).diff;
    expect(
      manifestDiff
        .split('\n')
        .filter((l) => /^[-+][^-+]/.test(l))
        .map((l) => l.replace(/\s+/, ' ')),
    ).toEqual(['- image: registry.example.com/shop/web:2.0.0', '+ image: registry.example.com/shop/web:1.0.0']);

    const pairs = [
      { tenant: 'acme', environment: 'dev' },
      { tenant: 'acme', environment: 'prod' },
      { tenant: 'globex', environment: 'prod' },
    ];
    const headBefore = await http.get<{ items: { sha: string }[] }>('/api/v2/projects/shop/commits?limit=1', {
      token: owner,
    });
    const bad = await http.post('/api/v2/projects/shop/bulk-update', {
      token: owner,
      body: {
        workload: 'web',
        tag: '3.0.0',
        pairs: [...pairs, { tenant: 'nobody', environment: 'dev' }, { tenant: 'acme', environment: 'staging' }],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('nobody/dev');
    expect(bad.body.error).toContain('acme/staging');
    const headAfter = await http.get<{ items: { sha: string }[] }>('/api/v2/projects/shop/commits?limit=1', {
      token: owner,
    });
    expect(headAfter.body.items[0]?.sha).toBe(headBefore.body.items[0]?.sha);

    const preview = await http.post<{ files: { path: string }[] }>('/api/v2/projects/shop/bulk-update/preview', {
      token: owner,
      body: { workload: 'web', tag: '3.0.0', pairs },
    });
    const expectedFiles = pairs.map((p) => `tenants/${p.tenant}/${p.environment}/web/deployment.yaml`).sort();
    expect(preview.body.files.map((f) => f.path).sort()).toEqual(expectedFiles);

    const apply = await http.post<{ commit: string; auditIds: string[] }>('/api/v2/projects/shop/bulk-update', {
      token: owner,
      body: { workload: 'web', tag: '3.0.0', pairs },
    });
    expect(apply.status).toBe(200);
    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
    expect(await headOf(clone.dir)).toBe(apply.body.commit);
    const touched = await gitCli(['diff', '--name-only', 'HEAD~1', 'HEAD'], clone.dir);
    expect(touched.stdout.trim().split('\n').sort()).toEqual(expectedFiles);
    const entries = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id, action: 'image.update' })
      .select('git_commit_sha', 'tenant_id');
    expect(entries).toHaveLength(3);
    expect(new Set(entries.map((e: { git_commit_sha: string }) => e.git_commit_sha))).toEqual(
      new Set([apply.body.commit]),
    );
    expect(entries.map((e: { tenant_id: string }) => e.tenant_id).sort()).toEqual(
      [tenantIds.acme, tenantIds.acme, tenantIds.globex].sort(),
    );
    const events = await listDomainEvents(platform.services.db, org.org.id);
    expect(events.map((e) => [e.type, e.payload.gitCommitSha, e.payload.pairs])).toEqual([
      ['images updated via bulk operation', apply.body.commit, pairs],
    ]);
    expect(new Set(events[0]?.payload.auditIds as string[])).toEqual(new Set(apply.body.auditIds));
  });

  it('refuses push with a clear message', async () => {
    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
    await fs.writeFile(path.join(clone.dir, 'x.txt'), 'x');
    await gitCli(['-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qam', 'x', '--allow-empty'], clone.dir);
    const push = await gitCli(['push', 'origin', 'HEAD:main'], clone.dir);
    expect(push.ok).toBe(false);
    expect(push.stderr).toContain('pushing is not supported');
  });
});

describe('the one commit path', () => {
  it('refuses .git in any spelling and invisible characters with a 400 naming the path, committing nothing (A-89)', async () => {
    const before = await http.get<{ items: unknown[] }>('/api/v2/projects/shop/commits?limit=200', { token: owner });
    const hostile: [string, string][] = [
      ['.GIT/config', '.GIT/config'],
      ['a/.git/x', 'a/.git/x'],
      ['.git./hooks/pre-commit', '.git./hooks/pre-commit'],
      ['notes/\u202Egpj.yaml', 'notes/\\u202egpj.yaml'],
      ['notes/a\u200Bb.md', 'notes/a\\u200bb.md'],
    ];
    for (const [path, shown] of hostile) {
      const res = await http.put('/api/v2/projects/shop/files/content', {
        token: owner,
        body: { path, content: 'x\n', message: 'hostile' },
      });
      expect([shown, res.status]).toEqual([shown, 400]);
      expect((res.body as { error: string }).error).toContain(`invalid path "${shown}"`);
    }
    const after = await http.get<{ items: unknown[] }>('/api/v2/projects/shop/commits?limit=200', { token: owner });
    expect(after.body.items).toHaveLength(before.body.items.length);
  });

  it('lands two concurrent writes as two commits', async () => {
    const before = await http.get<{ items: unknown[] }>('/api/v2/projects/shop/commits?limit=200', { token: owner });
    const writes = await Promise.all(
      ['a', 'b'].map((name) =>
        http.put<{ commit: string }>('/api/v2/projects/shop/files/content', {
          token: owner,
          body: { path: `notes/${name}.md`, content: `# ${name}\n`, message: `Add ${name}` },
        }),
      ),
    );
    expect(writes.map((w) => w.status)).toEqual([200, 200]);
    expect(writes[0]?.body.commit).not.toBe(writes[1]?.body.commit);
    const after = await http.get<{ items: { sha: string; author: { email: string } }[] }>(
      '/api/v2/projects/shop/commits?limit=200',
      { token: owner },
    );
    expect(after.body.items).toHaveLength(before.body.items.length + 2);
    expect(after.body.items[0]?.author.email).toBe(org.members.owner!.user.email);
    const list = await http.get<{ items: { path: string }[] }>('/api/v2/projects/shop/files?path=notes', {
      token: owner,
    });
    expect(list.body.items.map((i) => i.path)).toEqual(['notes/a.md', 'notes/b.md']);
  });

  it('returns the first SHA for a retried write with the same idempotency key, and makes no second commit', async () => {
    const body = { path: 'notes/once.md', content: 'once\n', message: 'Once' };
    const headers = { 'Idempotency-Key': 'retry-key-1' };
    const first = await http.put<{ commit: string }>('/api/v2/projects/shop/files/content', {
      token: owner,
      body,
      headers,
    });
    // The activity itself, called again as a retry would, with the same request.
    const project = await platform.services.projects.projects.projectOf(
      systemCaller('test', org.org.id, 'retry-test'),
      'shop',
    );
    const { commitToRepository } = createGitActivities(platform.services);
    const request: CommitRequest = {
      organizationId: org.org.id,
      projectId: project.id,
      idempotencyKey: 'retry-key-1',
      workflowId: `git-commit-${project.id}-retry-key-1`,
      message: 'Once',
      actor: { userId: null, actorType: 'system', actor: 'test', email: null, requestId: null },
      operation: { type: 'files', writes: [{ path: 'notes/once.md', content: 'changed\n' }], deletes: [] },
    };
    const outcome = await new MockActivityEnvironment().run(commitToRepository, request);
    expect(outcome).toMatchObject({ sha: first.body.commit, created: false });
    const second = await http.put<{ commit: string }>('/api/v2/projects/shop/files/content', {
      token: owner,
      body,
      headers,
    });
    expect(second.body.commit).toBe(first.body.commit);
    const history = await http.get<{ items: { trailers: Record<string, string> }[] }>('/api/v2/projects/shop/commits', {
      token: owner,
    });
    expect(history.body.items.filter((c) => c.trailers['Idempotency-Key'] === 'retry-key-1')).toHaveLength(1);
  });
});

describe('writes committed in the process that took them (GIT_DIRECT_COMMIT, the default)', () => {
  it('commits a file write without a commit workflow: no task queue between the request and its commit', async () => {
    const project = (await platform.services.db('projects').where({ slug: 'shop' }).first('id')) as { id: string };
    const key = 'direct-key-1';
    const res = await http.put<{ commit: string }>('/api/v2/projects/shop/files/content', {
      token: owner,
      body: { path: 'notes/direct.md', content: 'no queue\n', message: 'Direct' },
      headers: { 'Idempotency-Key': key },
    });
    expect(res.status).toBe(200);
    expect(res.body.commit).toMatch(/^[0-9a-f]{40}$/);
    const started = await platform.services.temporal.workflow
      .getHandle(`git-commit-${project.id}-${key}`)
      .describe()
      .then(
        () => 'started',
        (err: Error) => err.name,
      );
    expect(started).toBe('WorkflowNotFoundError');
    const entries = (await platform.services.db('audit_log').where({ git_commit_sha: res.body.commit })) as {
      action: string;
    }[];
    expect(entries.map((e) => e.action)).toEqual(['git.files.commit']);
  });
});

describe('access to the repository', () => {
  it('reads the query strictly: a doubled or unknown parameter answers 400, never the push advertisement (A-90)', async () => {
    const refs = `${platform.url}/git/r/${org.org.slug}/shop.git/info/refs`;
    const auth = { Authorization: `Basic ${Buffer.from(`token:${owner}`).toString('base64')}` };
    const get = (query: string) => fetch(`${refs}?${query}`, { headers: auth });
    const read = await get('service=git-upload-pack');
    expect([read.status, read.headers.get('content-type')]).toEqual([
      200,
      'application/x-git-upload-pack-advertisement',
    ]);
    for (const query of [
      'service=git-upload-pack&service=git-receive-pack',
      'service=git-receive-pack&service=git-upload-pack',
      'service=git-upload-pack&x=1',
      'Service=git-receive-pack',
      'service=git-upload-pack;service=git-receive-pack',
    ]) {
      const res = await get(query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(await res.text()).not.toContain('receive-pack');
    }
    expect((await get('service=git%2Dreceive-pack')).status).toBe(403);
  });

  it('keeps another organization out (clone, files, project) and viewers from writing', async () => {
    const outsider = other.members.owner!.token;
    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', outsider));
    expect(clone.ok).toBe(false);
    expect(clone.stderr).toMatch(/404|not found/i);
    const anonymous = await fetch(`${platform.url}/git/r/${org.org.slug}/shop.git/info/refs?service=git-upload-pack`);
    expect(anonymous.status).toBe(401);
    expect((await http.get('/api/v2/projects/shop/files', { token: outsider })).status).toBe(404);
    expect((await http.get('/api/v2/projects/shop', { token: outsider })).status).toBe(404);

    const viewer = org.members.viewer!.token;
    expect((await http.get('/api/v2/projects/shop/files', { token: viewer })).status).toBe(200);
    const write = await http.put('/api/v2/projects/shop/files/content', {
      token: viewer,
      body: { path: 'x.md', content: 'x', message: 'x' },
    });
    expect(write.status).toBe(403);
    expect((await cloneInto(cloneUrl(platform, org.org.slug, 'shop', viewer))).ok).toBe(true);
  });
});
