/**
 * Issue 26 acceptance: two environments bound to two clusters, one tenant. The cloned repository has distinct
 * destinations and namespaces, one AppProject restricting them, the bootstrap roots; changing a binding shows in the
 * preview and is one commit; every Argo CD object validates against Argo CD's schemas; every generated folder builds
 * with the real kustomize and its output validates for the environment's Kubernetes version.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { argoProblems, isArgoFile } from '../../helpers/argocd-validation';
import { kubeScopeOf } from '../../../src/validation/kube-scopes';
import { checkRepository } from '../../../src/argocd-semantics/semantics-check';
import { kustomizeBuild } from '../../../src/tools/kustomize-build';
import { repoRoot } from '../../../src/paths';
import { cloneInto, cloneUrl, filesOf, gitCli, makeProject } from './gitops-harness';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
const clusters: Record<string, string> = {};
const clones: string[] = [];

type Obj = { kind: string; metadata: { name: string }; spec: Record<string, unknown> };

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  await makeProject(platform, owner, 'shop', ['acme']);
  for (const name of ['eu-dev', 'eu-prod']) {
    const res = await http.post<{ id: string }>('/api/v2/clusters', { token: owner, body: { name } });
    expect(res.status).toBe(201);
    clusters[name] = res.body.id;
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(clones.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  await platform.close();
});

async function bind(cluster: string, environments: string[]) {
  const res = await http.post<{ id: string }>('/api/v2/agent-bindings', {
    token: owner,
    body: { clusterId: clusters[cluster], project: 'shop', environments, followAgentVersion: false },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function clone() {
  const c = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  clones.push(c.dir);
  expect([c.ok, c.stderr]).toEqual([true, '']);
  const files = new Map<string, string>();
  for (const file of await filesOf(c.dir)) files.set(file, await fs.readFile(path.join(c.dir, file), 'utf8'));
  return { dir: c.dir, files, obj: (p: string) => load(files.get(p) ?? '') as Obj };
}

describe('a repository a real Argo CD can run', () => {
  const bindings: string[] = [];
  let dir: string;

  it('renders each environment to its bound cluster and its own namespace, one AppProject, the bootstrap roots', async () => {
    bindings.push(await bind('eu-dev', ['dev']), await bind('eu-prod', ['prod']));
    const gen = await http.post<{ created: boolean }>('/api/v2/projects/shop/delivery/generate', {
      token: owner,
      body: {},
    });
    expect([gen.status, gen.body.created]).toEqual([200, true]);
    const repo = await clone();
    dir = repo.dir;
    expect(repo.obj('applications/acme/dev/web.yaml').spec.destination).toEqual({
      name: 'eu-dev',
      namespace: 'acme-dev',
    });
    expect(repo.obj('applications/acme/prod/web.yaml').spec).toMatchObject({
      project: 'shop',
      destination: { name: 'eu-prod', namespace: 'acme-prod' },
      // `prod` of the test catalogue is not marked production: the non-production defaults apply.
      syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
    });
    expect(repo.obj('appprojects/shop.yaml').spec).toMatchObject({
      sourceRepos: [`${platform.config.publicUrl}/git/r/${org.org.slug}/shop.git`],
      destinations: [
        { name: 'eu-dev', namespace: 'acme-dev' },
        { name: 'eu-prod', namespace: 'acme-prod' },
      ],
      clusterResourceWhitelist: [
        { group: '', kind: 'Namespace', name: 'acme-dev' },
        { group: '', kind: 'Namespace', name: 'acme-prod' },
      ],
    });
    expect([...repo.files.keys()].filter((f) => f.startsWith('bootstrap/') || f.startsWith('.'))).toEqual([
      '.delivery-validate.json',
      'bootstrap/appproject.yaml',
      'bootstrap/clusters/eu-dev.yaml',
      'bootstrap/clusters/eu-prod.yaml',
      'bootstrap/hub.yaml',
      'bootstrap/per-cluster/eu-dev.yaml',
      'bootstrap/per-cluster/eu-prod.yaml',
    ]);
    const argo = [...repo.files].filter(([file]) => isArgoFile(file));
    expect(argo).toHaveLength(2 + 1 + 6);
    // Argo CD's rules beyond the schemas: permissions, roots reachable from each bootstrap, one owner (issue 44).
    expect(checkRepository(repo.files, { scopeOf: kubeScopeOf }).filter((r) => r.findings.length > 0)).toEqual([]);
    expect(argoProblems(platform.services.validation, argo)).toEqual([]);
  });

  it('builds every generated folder with the real kustomize, its output valid for the environment version', async () => {
    const repo = await clone();
    const folders = new Set([...repo.files.keys()].filter((f) => f.startsWith('tenants/')).map(path.dirname));
    expect([...folders].sort()).toEqual(['tenants/acme/dev/web', 'tenants/acme/prod/web']);
    for (const folder of folders) {
      const files = Object.fromEntries(
        [...repo.files].filter(([f]) => path.dirname(f) === folder).map(([f, t]) => [path.basename(f), t]),
      );
      const built = await kustomizeBuild(platform.services.renderers, 'test', files);
      expect(built).toContain('kind: Deployment');
      const version = folder.includes('/dev/') ? '1.27' : '1.31';
      const result = platform.services.validation.validate(built, version, { bestPractices: false });
      expect([folder, result.summary.errors]).toEqual([folder, 0]);
    }
  });

  it('passes delivery-validate as CI runs it over the whole clone, each environment at its version', async () => {
    const repo = await clone();
    expect(JSON.parse(repo.files.get('.delivery-validate.json') ?? '{}')).toEqual({
      versionFor: ['tenants/*/dev/**=1.27', 'tenants/*/prod/**=1.31'],
    });
    const cli = (cwd: string) =>
      spawnSync(
        path.join(repoRoot(), 'node_modules', '.bin', 'tsx'),
        [path.join(repoRoot(), 'src/validation/cli.ts'), '--strict', '--severity', 'warning', '-o', 'json', '.'],
        { cwd, encoding: 'utf8', timeout: 120_000 },
      );
    const ok = cli(repo.dir);
    expect([ok.status, ok.stderr]).toEqual([0, expect.stringMatching(/invalid, 0 skipped\); 0 errors, 0 warnings/)]);
    // json: one line per file, the body of POST /api/v2/k8s/validate plus `file`.
    const lines = ok.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; valid: boolean; results: { message: string }[] });
    expect(lines.map((l) => l.file).sort()).toEqual([...repo.files.keys()].filter((f) => f.endsWith('.yaml')).sort());
    expect(lines.filter((l) => !l.valid || l.results.length > 0)).toEqual([]);

    const app = path.join(repo.dir, 'applications/acme/dev/web.yaml');
    await fs.writeFile(app, (await fs.readFile(app, 'utf8')).replace('syncPolicy:', 'syncPolicyy:'));
    const bad = cli(repo.dir);
    expect([bad.status, bad.stdout.includes('syncPolicyy')]).toEqual([1, true]);
  });

  it('shows a binding change as modified Applications and AppProject in the preview, then commits it once', async () => {
    for (const id of bindings)
      expect((await http.delete(`/api/v2/agent-bindings/${id}`, { token: owner })).status).toBe(200);
    await bind('eu-dev', ['dev', 'prod']);
    type Preview = {
      targets: { environment: string; files: { path: string; status: string }[] }[];
      projectFiles: { path: string; status: string }[];
    };
    const preview = await http.get<Preview>('/api/v2/projects/shop/delivery/preview?changedOnly=true', {
      token: owner,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.targets.flatMap((t) => t.files)).toEqual([
      expect.objectContaining({ path: 'applications/acme/prod/web.yaml', status: 'modified' }),
    ]);
    expect(preview.body.projectFiles.map((f) => [f.path, f.status])).toEqual([
      ['appprojects/shop.yaml', 'modified'],
      ['bootstrap/clusters/eu-dev.yaml', 'modified'],
      ['bootstrap/clusters/eu-prod.yaml', 'deleted'],
      ['bootstrap/per-cluster/eu-prod.yaml', 'deleted'],
    ]);
    const before = (await gitCli(['rev-parse', 'HEAD'], dir)).stdout.trim();
    const gen = await http.post<{ commit: string }>('/api/v2/projects/shop/delivery/generate', {
      token: owner,
      body: {},
    });
    expect(gen.status).toBe(200);
    const repo = await clone();
    const log = (await gitCli(['log', '--format=%H %P'], repo.dir)).stdout.trim().split('\n');
    expect(log[0]).toBe(`${gen.body.commit} ${before}`);
    expect(repo.obj('applications/acme/prod/web.yaml').spec.destination).toEqual({
      name: 'eu-dev',
      namespace: 'acme-prod',
    });
  });

  it('refuses to generate two environments into one namespace unless both allow it', async () => {
    const patch = await http.patch('/api/v2/projects/shop', {
      token: owner,
      body: { argocd: { namespaceTemplate: '{tenant}' } },
    });
    expect(patch.status).toBe(200);
    const refused = await http.post<{ error: string }>('/api/v2/projects/shop/delivery/generate', {
      token: owner,
      body: {},
    });
    expect([refused.status, refused.body.error]).toEqual([
      409,
      'acme/dev, acme/prod render to the same cluster and namespace eu-dev/acme ' +
        '(set destination.allowSharedNamespace on their environments to allow it)',
    ]);
    for (const env of ['dev', 'prod']) {
      const res = await http.patch(`/api/v2/projects/shop/environments/${env}`, {
        token: owner,
        body: { destination: { allowSharedNamespace: true }, syncPolicy: { automated: false } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ syncPolicy: { automated: false }, destination: { allowSharedNamespace: true } });
    }
    expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
    const repo = await clone();
    expect(repo.obj('applications/acme/dev/web.yaml').spec.syncPolicy).toEqual({
      syncOptions: ['CreateNamespace=true'],
    });
  });
});
