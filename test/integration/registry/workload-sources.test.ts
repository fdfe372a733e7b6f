import fs from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';
import { cloneInto, cloneUrl, makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';
import { pushChart } from './chart-push';
import { ociClient } from './oci-protocol';
import { twoOrgs } from './two-orgs';

const s = twoOrgs(['owner']);

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 1
  selector:
    matchLabels: { app: api }
  template:
    metadata:
      labels: { app: api }
    spec:
      containers:
        - name: api
          image: nginx:1.25
`;
const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector: { app: api }
  ports: [{ port: 80, targetPort: 8080 }]
`;
const KUSTOMIZATION = `resources:
  - deployment.yaml
  - ./service.yaml
namePrefix: shop-
commonLabels:
  tier: backend
images:
  - name: nginx
    newName: registry.example.com/shop/api
`;
const WORKER = DEPLOYMENT.replace(/\bapi\b/g, 'worker').replace('nginx:1.25', 'registry.example.com/shop/worker:0.1');

type Doc = {
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    replicas?: number;
    selector: Record<string, unknown>;
    template?: { spec: { containers: { image: string }[] } };
  };
};

const token = () => s.org.members.owner!.token;
const post = (url: string, body: unknown) => s.http.post<{ error?: string }>(url, { token: token(), body });
const workload = (name: string, repository: string, source: unknown, extra: Record<string, unknown> = {}) =>
  post('/api/v2/projects/shop/workloads', { name, image: { repository, tag: '2.0.0' }, source, ...extra });

beforeAll(async () => {
  await makeProject(s.platform, token(), 'shop', ['acme']);
  const upload = await post('/api/v2/org-kustomize-bases', {
    name: 'api-base',
    version: '1.0.0',
    files: { 'kustomization.yaml': KUSTOMIZATION, 'deployment.yaml': DEPLOYMENT, 'service.yaml': SERVICE },
  });
  expect([upload.status, upload.text.slice(0, 300)]).toEqual([201, expect.any(String)]);
  const oci = ociClient(s.platform.url, token());
  await pushChart(oci, `${s.org.org.slug}/charts/worker`, '0.1.0', { files: { 'templates/deployment.yaml': WORKER } });
  await pushChart(oci, `${s.org.org.slug}/charts/worker`, '0.2.0', {
    files: { 'templates/deployment.yaml': WORKER.replace('replicas: 1', 'replicas: {{ .Values.replicaCount }}') },
  });
}, 120_000);

describe('workloads rendered from an organization chart or kustomize base', () => {
  it('generates a kustomize base and a plain chart with each target image tag and replicas, valid, into real git', async () => {
    const base = { kind: 'kustomize-base', name: 'api-base', version: '1.0.0' };
    const overrides = { environments: { prod: { replicas: 4 } }, tenants: { acme: { prod: { tag: '2.1.0' } } } };
    expect((await workload('api', 'registry.example.com/shop/api', base, { replicas: 2, overrides })).status).toBe(201);
    const chart = { kind: 'chart', name: 'charts/worker', version: '0.1.0' };
    expect((await workload('worker', 'registry.example.com/shop/worker', chart)).status).toBe(201);

    const res = await post('/api/v2/projects/shop/delivery/generate', {});
    const body = res.body as unknown as {
      created: boolean;
      validation: { summary: { errors: number }; files: number };
    };
    expect(res.status === 200 ? 200 : res.text).toBe(200);
    expect(body.created).toBe(true);
    expect(body.validation.summary.errors).toBe(0);

    const clone = await cloneInto(cloneUrl(s.platform, s.org.org.slug, 'shop', token()));
    expect([clone.ok, clone.stderr]).toEqual([true, '']);
    const read = (file: string) => fs.readFile(path.join(clone.dir, file), 'utf8');
    const doc = async (file: string) => load(await read(file)) as Doc;

    const dev = await doc('tenants/acme/dev/api/deployment-shop-api.yaml');
    expect(dev.metadata).toMatchObject({ name: 'shop-api', labels: { tier: 'backend' } });
    expect(dev.spec.selector).toEqual({ matchLabels: { app: 'api', tier: 'backend' } });
    expect(dev.spec.replicas).toBe(2);
    expect(dev.spec.template?.spec.containers[0]?.image).toBe('registry.example.com/shop/api:2.0.0');
    const prod = await doc('tenants/acme/prod/api/deployment-shop-api.yaml');
    expect(prod.spec.replicas).toBe(4);
    expect(prod.spec.template?.spec.containers[0]?.image).toBe('registry.example.com/shop/api:2.1.0');
    expect((await doc('tenants/acme/prod/api/service-shop-api.yaml')).spec.selector).toEqual({
      app: 'api',
      tier: 'backend',
    });
    expect(load(await read('tenants/acme/prod/api/kustomization.yaml'))).toMatchObject({
      resources: ['deployment-shop-api.yaml', 'service-shop-api.yaml'],
    });

    const worker = await doc('tenants/acme/dev/worker/deployment-worker.yaml');
    expect(worker.spec.template?.spec.containers[0]?.image).toBe('registry.example.com/shop/worker:2.0.0');
    expect(worker.spec.replicas).toBe(1);
    // The workload without a source is generated as before.
    await expect(read('tenants/acme/dev/web/deployment.yaml')).resolves.toContain('kind: Deployment');
  });

  it('renders a templated chart with the bundled helm template', async () => {
    const patch = await s.http.patch('/api/v2/projects/shop/workloads/worker', {
      token: token(),
      body: { source: { kind: 'chart', name: 'charts/worker', version: '0.2.0' }, replicas: 3 },
    });
    expect(patch.status).toBe(200);
    const res = await s.http.get<{ targets: { files: { path: string; content: string }[] }[] }>(
      '/api/v2/projects/shop/delivery/preview?service=worker&tenant=acme&environment=dev',
      { token: token() },
    );
    expect(res.status).toBe(200);
    const file = res.body.targets[0]?.files.find((f) => f.path.endsWith('/deployment-worker.yaml'));
    expect((load(file?.content ?? '') as Doc).spec.replicas).toBe(3);
  });

  it('compares what each environment deploys: chart versions, helm values and the base of each overlay', async () => {
    const upload = await post('/api/v2/org-kustomize-bases', {
      name: 'api-base',
      version: '1.0.1',
      files: { 'kustomization.yaml': KUSTOMIZATION, 'deployment.yaml': DEPLOYMENT, 'service.yaml': SERVICE },
    });
    expect(upload.status).toBe(201);
    const patch = (name: string, source: unknown) =>
      s.http.patch(`/api/v2/projects/shop/workloads/${name}`, { token: token(), body: { source } });
    const chart = { kind: 'chart', name: 'charts/worker', version: '0.2.0', values: { greeting: 'hello' } };
    expect((await patch('worker', chart)).status).toBe(200);
    expect((await patch('api', { kind: 'kustomize-base', name: 'api-base', version: '1.0.1' })).status).toBe(200);
    // Only dev gets the new sources: a release commits its own target, prod keeps what the first generate wrote.
    const releases = releaseClient(s.platform);
    const created = await releases.create(token(), 'shop', { environment: 'dev', tenantId: 'acme', title: 'sources' });
    expect([created.status, created.text.slice(0, 300)]).toEqual([201, expect.any(String)]);
    await releases.until(token(), created.body.id, (r) => r.commitSha !== null, 60_000);

    type Difference = { type: string; from: unknown; to: unknown };
    const compare = async (query: string) => {
      const res = await s.http.get<{ items: { service: string; differences: Difference[] }[] }>(
        `/api/v2/projects/shop/compare?from=dev&to=prod&tenant=acme${query}`,
        { token: token() },
      );
      expect([res.status, res.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
      return Object.fromEntries(res.body.items.map((i) => [i.service, i.differences]));
    };
    const all = await compare('');
    expect(all.worker).toEqual(
      expect.arrayContaining([
        { type: 'chart-versions', from: 'charts/worker 0.2.0', to: 'charts/worker 0.1.0' },
        {
          type: 'helm-values',
          from: {
            greeting: 'hello',
            image: { repository: 'registry.example.com/shop/worker', tag: '2.0.0' },
            replicaCount: 3,
          },
          to: { image: { repository: 'registry.example.com/shop/worker', tag: '2.0.0' }, replicaCount: 1 },
        },
      ]),
    );
    expect(all.api).toEqual(
      expect.arrayContaining([{ type: 'overlays', from: 'api-base 1.0.1', to: 'api-base 1.0.0' }]),
    );
    // The workload generated from its own spec has no source to differ in.
    expect((all.web ?? []).map((d) => d.type)).not.toContain('chart-versions');
    expect(await compare('&type=overlays')).toEqual({
      api: [{ type: 'overlays', from: 'api-base 1.0.1', to: 'api-base 1.0.0' }],
    });
    expect(Object.keys(await compare('&type=chart-versions'))).toEqual(['worker']);
  });

  it('refuses at save a missing version or a base kustomize cannot build; at render a deleted one', async () => {
    const patch = (source: unknown) =>
      s.http.patch<{ error: string }>('/api/v2/projects/shop/workloads/worker', { token: token(), body: { source } });
    const preview = () => s.http.get<{ error: string }>('/api/v2/projects/shop/delivery/preview', { token: token() });

    const missing = await patch({ kind: 'chart', name: 'charts/worker', version: '9.9.9' });
    expect([missing.status, missing.body.error]).toEqual([
      422,
      'chart charts/worker 9.9.9 is not in the organization registry',
    ]);
    // The real kustomize builds what the old subset refused (patches): the patched replicas are then overridden by
    // the workload's own count, as for every base.
    const patched = await post('/api/v2/org-kustomize-bases', {
      name: 'api-base',
      version: '1.1.0',
      files: {
        'kustomization.yaml': `${KUSTOMIZATION}patches:\n  - path: patch.yaml\n`,
        'deployment.yaml': DEPLOYMENT,
        'service.yaml': SERVICE,
        'patch.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 9\n',
      },
    });
    expect(patched.status).toBe(201);
    expect((await patch({ kind: 'kustomize-base', name: 'api-base', version: '1.1.0' })).status).toBe(200);
    const broken = await post('/api/v2/org-kustomize-bases', {
      name: 'api-base',
      version: '1.2.0',
      files: {
        'kustomization.yaml': `${KUSTOMIZATION}patches:\n  - path: missing-patch.yaml\n`,
        'deployment.yaml': DEPLOYMENT,
        'service.yaml': SERVICE,
      },
    });
    if (broken.status === 201) {
      const refused = await patch({ kind: 'kustomize-base', name: 'api-base', version: '1.2.0' });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatch(/^kustomize build failed: .*missing-patch\.yaml/);
    } else expect(broken.status).toBe(422);

    // A version deleted after a workload took it fails the next render.
    expect((await patch({ kind: 'chart', name: 'charts/worker', version: '0.1.0' })).status).toBe(200);
    const chart = encodeURIComponent('charts/worker');
    expect((await s.http.delete(`/api/v2/org-charts/${chart}/versions/0.1.0`, { token: token() })).status).toBe(204);
    const gone = await preview();
    expect([gone.status, gone.body.error]).toEqual([
      422,
      'chart charts/worker 0.1.0 is not in the organization registry',
    ]);

    // Removing the source renders the workload's own Deployment again.
    expect((await patch(null)).status).toBe(200);
    expect((await preview()).status).toBe(200);
  });

  it('refuses chart values on a kustomize base source', async () => {
    const res = await s.http.patch<{ error: string }>('/api/v2/projects/shop/workloads/api', {
      token: token(),
      body: { source: { kind: 'kustomize-base', name: 'api-base', version: '1.0.0', values: { a: 1 } } },
    });
    expect([res.status, res.body.error]).toEqual([400, 'values apply to a chart source only']);
  });
});
