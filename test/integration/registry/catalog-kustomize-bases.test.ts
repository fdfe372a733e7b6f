import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { twoOrgs } from './two-orgs';
import { DEPLOYMENT, SERVICE } from './catalog-manifests';

const s = twoOrgs(['owner', 'member', 'viewer']);

const BASES = '/api/v2/org-kustomize-bases';
function base(version: string, files: Record<string, string> = {}) {
  return {
    name: 'web',
    version,
    kubernetesVersion: '1.30',
    files: {
      'kustomization.yaml': 'resources:\n  - deployment.yaml\n  - ./manifests/service.yaml\n',
      'deployment.yaml': DEPLOYMENT,
      'manifests/service.yaml': SERVICE,
      'patches/replicas.yaml': 'kind: Deployment\nspec: { replicas: 3 }\n',
      ...files,
    },
  };
}

async function versionsOf(token: string) {
  const res = await s.http.get<{ items: { name: string; version: string }[] }>(`${BASES}?name=web`, { token });
  return res.body.items.map((v) => v.version);
}

describe('kustomize bases of the organization', () => {
  it('uploads a validated base, lists it page by page and reads a version with its files', async () => {
    const token = s.org.members.member!.token;
    const first = await s.http.post<{
      version: string;
      fileCount: number;
      validation: { valid: boolean; files: string[] };
    }>(BASES, { token, body: base('1.0.0') });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ version: '1.0.0', fileCount: 4, validation: { valid: true } });
    expect(first.body.validation.files).toEqual(['kustomize build']);
    expect((await s.http.post(BASES, { token, body: base('1.1.0') })).status).toBe(201);
    expect((await s.http.post(BASES, { token, body: base('1.1.0') })).status).toBe(409);

    const viewer = s.org.members.viewer!.token;
    const page1 = await s.http.get<{ items: { version: string }[]; nextCursor: string }>(`${BASES}?limit=1`, {
      token: viewer,
    });
    expect(page1.body.items.map((v) => v.version)).toEqual(['1.0.0']);
    const page2 = await s.http.get<{ items: { version: string }[]; nextCursor: string | null }>(
      `${BASES}?limit=1&cursor=${page1.body.nextCursor}`,
      { token: viewer },
    );
    expect(page2.body.items.map((v) => v.version)).toEqual(['1.1.0']);
    expect(page2.body.nextCursor).toBeNull();

    const read = await s.http.get<{ files: Record<string, string> }>(`${BASES}/web/versions/1.0.0`, { token: viewer });
    expect(read.status).toBe(200);
    expect(read.body.files['manifests/service.yaml']).toBe(SERVICE);
  });

  it('refuses a base whose built objects fail validation or that kustomize cannot build, storing nothing', async () => {
    const token = s.org.members.owner!.token;
    const invalid = await s.http.post<{
      validation: { valid: boolean; results: { file: string; severity: string; resource: string }[] };
    }>(BASES, { token, body: base('2.0.0', { 'deployment.yaml': DEPLOYMENT.replace('apps/v1', 'apps/v1beta1') }) });
    expect(invalid.status).toBe(422);
    expect(invalid.body.validation.valid).toBe(false);
    expect(invalid.body.validation.results).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: 'kustomize build', severity: 'error' })]),
    );
    const refused = async (version: string, files: Record<string, string>) => {
      const res = await s.http.post<{ validation: { results: { file: string; message: string }[] } }>(BASES, {
        token,
        body: base(version, files),
      });
      expect(res.status).toBe(422);
      return res.body.validation.results.map((r) => `${r.file}: ${r.message}`);
    };
    expect(await refused('2.0.1', { 'kustomization.yaml': 'resources:\n  - missing.yaml\n' })).toEqual([
      expect.stringMatching(/^kustomization\.yaml: kustomize build failed: .*missing\.yaml/),
    ]);
    expect(
      await refused('2.0.3', {
        'kustomization.yaml': 'resources: [deployment.yaml]\ncomponents: [gone]\n',
      }),
    ).toEqual([expect.stringMatching(/^kustomization\.yaml: kustomize build failed: .*gone/)]);
    expect(await refused('2.0.4', { 'kustomization.yaml': 'resources: []\n' })).toEqual([
      'kustomization.yaml: the base builds no object',
    ]);
    const { 'kustomization.yaml': _omitted, ...withoutKustomization } = base('2.0.2').files;
    const bare = await s.http.post(BASES, {
      token,
      body: { name: 'web', version: '2.0.2', files: withoutKustomization },
    });
    expect(bare.status).toBe(422);
    expect(await versionsOf(token)).toEqual(['1.0.0', '1.1.0']);
  });

  it('builds a base with overlays, components and patches as kustomize does', async () => {
    const token = s.org.members.owner!.token;
    const res = await s.http.post<{ validation: { valid: boolean } }>(BASES, {
      token,
      body: {
        name: 'layered',
        version: '1.0.0',
        files: {
          'kustomization.yaml':
            'resources: [app]\ncomponents: [extra]\nnamePrefix: shop-\npatches:\n  - path: replicas.yaml\n',
          'replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec: { replicas: 3 }\n',
          'app/kustomization.yaml': 'resources: [deployment.yaml]\n',
          'app/deployment.yaml': DEPLOYMENT,
          'extra/kustomization.yaml':
            'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [service.yaml]\n',
          'extra/service.yaml': SERVICE,
        },
      },
    });
    expect([res.status, res.body.validation.valid]).toEqual([201, true]);
  });

  it.each(['/etc/passwd', '../escape.yaml', 'a/../../b.yaml', 'a//b.yaml', './x.yaml', 'a\\b.yaml'])(
    'refuses the file path %j with 400',
    async (path) => {
      const token = s.org.members.owner!.token;
      const res = await s.http.post(BASES, { token, body: base('3.0.0', { [path]: SERVICE }) });
      expect(res.status).toBe(400);
      expect(await versionsOf(token)).toEqual(['1.0.0', '1.1.0']);
    },
  );

  it('bounds the number of files', async () => {
    const files = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}.txt`, 'x']));
    const res = await s.http.post(BASES, { token: s.org.members.owner!.token, body: base('4.0.0', files) });
    expect(res.status).toBe(400);
  });

  it('lets viewers read but not upload or delete', async () => {
    const token = s.org.members.viewer!.token;
    expect((await s.http.post(BASES, { token, body: base('5.0.0') })).status).toBe(403);
    expect((await s.http.delete(`${BASES}/web/versions/1.0.0`, { token })).status).toBe(403);
    expect((await s.http.delete(`${BASES}/web`, { token })).status).toBe(403);
  });

  it('is invisible to another organization', async () => {
    const token = s.other.members.owner!.token;
    expect((await s.http.get<{ items: unknown[] }>(BASES, { token })).body.items).toEqual([]);
    expect((await s.http.get(`${BASES}/web/versions/1.0.0`, { token })).status).toBe(404);
    expect((await s.http.delete(`${BASES}/web/versions/1.0.0`, { token })).status).toBe(404);
    expect((await s.http.delete(`${BASES}/web`, { token })).status).toBe(404);
    expect(await versionsOf(s.org.members.viewer!.token)).toEqual(['1.0.0', '1.1.0']);
  });

  it('deletes a version, then every version, audited with the uploads', async () => {
    const token = s.org.members.member!.token;
    expect((await s.http.delete(`${BASES}/web/versions/1.0.0`, { token })).status).toBe(204);
    expect(await versionsOf(token)).toEqual(['1.1.0']);
    expect((await s.http.delete(`${BASES}/web/versions/1.0.0`, { token })).status).toBe(404);
    expect((await s.http.delete(`${BASES}/web`, { token })).status).toBe(204);
    expect((await s.http.get(`${BASES}/web/versions/1.1.0`, { token })).status).toBe(404);

    const audit = await s.platform.services.audit.list({ organizationId: s.org.org.id, limit: 100 });
    const entries = audit.items
      .filter((e) => e.resourceType === 'kustomize_base' && (e.details as { slug?: string }).slug === 'web')
      .map((e) => `${e.category}:${e.action}:${String((e.details as { version?: string }).version)}`);
    expect(entries.sort()).toEqual([
      'configuration:kustomize_base.delete:1.0.0',
      'configuration:kustomize_base.delete:1.1.0',
      'configuration:kustomize_base.upload:1.0.0',
      'configuration:kustomize_base.upload:1.1.0',
    ]);
  });

  // Issue 25 (High): 100k `[` then 100k `]` in kustomization.yaml killed the API and the worker.
  it('refuses a kustomization nested past the parse limits with 400 and keeps serving', async () => {
    const token = s.org.members.owner!.token;
    const deep = `resources: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const res = await s.http.post<{ error: string }>(BASES, {
      token,
      body: base('6.0.0', { 'kustomization.yaml': deep }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(res.body)).toMatch(/nests deeper than 64 levels/);
    const bomb =
      'a: &a [x, x, x, x, x, x, x, x, x, x]\n' +
      Array.from(
        { length: 12 },
        (_, i) =>
          `b${i}: &b${i} [*${i === 0 ? 'a' : `b${i - 1}`}, *${i === 0 ? 'a' : `b${i - 1}`}, *${i === 0 ? 'a' : `b${i - 1}`}]`,
      ).join('\n');
    const aliased = await s.http.post(BASES, { token, body: base('6.0.1', { 'kustomization.yaml': bomb }) });
    expect(aliased.status).toBeGreaterThanOrEqual(400);
    expect(aliased.status).toBeLessThan(500);
    expect((await s.http.get('/healthz')).status).toBe(200);
    expect(await versionsOf(token)).not.toContain('6.0.0');
  });
});

/**
 * The sandbox of a base's `kustomize build` (docs/security.md): no network or remote base, no plugin, exec function
 * or chart inflation, bounded output; each refusal answers 422 with the reason and stores nothing.
 */
describe('the sandboxed kustomize build of an upload', () => {
  const refusal = async (version: string, files: Record<string, string>) => {
    const token = s.org.members.owner!.token;
    const res = await s.http.post<{ validation: { results: { message: string }[] } }>(BASES, {
      token,
      body: { name: 'sandbox', version, files },
    });
    expect(res.status).toBe(422);
    const got = await s.http.get(`${BASES}/sandbox/versions/${version}`, { token });
    expect(got.status).toBe(404);
    return res.body.validation.results.map((r) => r.message).join('\n');
  };

  it('refuses a remote base: neither git nor HTTP reaches out', async () => {
    const remote = 'https://github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v5.0.0';
    const message = await refusal('1.0.0', { 'kustomization.yaml': `resources:\n  - ${remote}\n` });
    expect(message).toBe(
      `resources: ${JSON.stringify(remote)} is a remote reference: renderers have no network, a base holds its own files`,
    );
  });

  // Issue 42 M2: a loopback URL was fetched (201, its content in the preview), and open and closed ports answered
  // different messages; now any URL-like reference, in any spelling, is refused before kustomize runs.
  it('refuses loopback URLs in any spelling with one message whatever the port (no port scanner)', async () => {
    const server = http.createServer((_, res) => res.end('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: leak}\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const answers: string[] = [];
      for (const [i, url] of [
        `http://127.0.0.1:${port}/x.yaml`,
        'http://127.0.0.1:9/x.yaml',
        `HTTP://localhost:${port}/x.yaml`,
      ].entries()) {
        const message = await refusal(`1.2.${i}`, { 'kustomization.yaml': `resources:\n  - ${url}\n` });
        answers.push(message.replace(JSON.stringify(url), '<url>'));
      }
      expect(answers).toEqual(
        Array(3).fill('resources: <url> is a remote reference: renderers have no network, a base holds its own files'),
      );
    } finally {
      server.close();
    }
  });

  // Issue 42 M3: `Resources:` (kustomize folds field names) and merge keys slipped past the outside-the-base check.
  it('refuses a folder outside the base however the kustomization spells the field', async () => {
    const app = (kustomization: string) => ({
      'kustomization.yaml': 'resources: [app]\n',
      'app/kustomization.yaml': kustomization,
    });
    expect(await refusal('1.3.0', app('Resources: [../../x]\n'))).toBe('resources: "../../x" is outside the base');
    expect(await refusal('1.3.1', app('<<: {resources: [../../x]}\n'))).toBe(
      'resources: "../../x" is outside the base',
    );
    expect(await refusal('1.3.2', app('resources: [a.yaml]\ntransformers: [../../t]\n'))).toBe(
      'transformers: "../../t" is outside the base',
    );
  });

  it('refuses exec plugins, KRM functions and helm chart inflation', async () => {
    const generator = [
      'apiVersion: example.com/v1',
      'kind: Gen',
      'metadata:',
      '  name: x',
      '  annotations:',
      '    config.kubernetes.io/function: |',
      '      exec:',
      '        path: /bin/sh',
      '',
    ].join('\n');
    expect(await refusal('2.0.0', { 'kustomization.yaml': 'generators: [gen.yaml]\n', 'gen.yaml': generator })).toMatch(
      /external plugins disabled/,
    );
    const chart = 'helmCharts:\n  - name: minecraft\n';
    expect(await refusal('2.0.1', { 'kustomization.yaml': chart })).toMatch(/must specify --enable-helm/);
    const remote = `${chart}    repo: https://itzg.github.io/minecraft-server-charts\n`;
    expect(await refusal('2.0.2', { 'kustomization.yaml': remote })).toMatch(/^repo: .* is a remote reference/);
  });

  it('refuses a base whose build output passes 4 MiB (a small base multiplied by overlays)', async () => {
    const files: Record<string, string> = {
      'base/kustomization.yaml': 'resources: [configmap.yaml]\n',
      'base/configmap.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: big }\ndata:\n  blob: ${'x'.repeat(60_000)}\n`,
    };
    const copies = Array.from({ length: 100 }, (_, i) => `c${i}`);
    for (const c of copies) files[`${c}/kustomization.yaml`] = `namePrefix: ${c}-\nresources: [../base]\n`;
    files['kustomization.yaml'] = `resources: [${copies.join(', ')}]\n`;
    expect(await refusal('3.0.0', files)).toBe('kustomize build failed: its output exceeds 4194304 bytes');
    expect((await s.http.get('/healthz')).status).toBe(200);
  });
});
