import fs from 'node:fs';
import path from 'node:path';
import { createApp } from '../../../api/app';
import { listen } from '../../../api/server';
import { createLogger } from '../../../src/logging/logger';
import { repoRoot } from '../../../src/paths';
import { ValidationEngine } from '../../../src/validation';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { widgetCrd } from '../../helpers/widget-crd';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

type Result = { severity: string; message: string; path: string; resource: string };
type Validation = { valid: boolean; results: Result[]; summary: { errors: number; warnings: number; info: number } };

const CORPUS = path.join(repoRoot(), 'test', 'fixtures', 'corpus');
const corpus = (rel: string) => fs.readFileSync(path.join(CORPUS, rel), 'utf8');
const KC = 'kubeconform/fixtures';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let token: string;
let viewerToken: string;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  const { members } = await makeOrg(platform, ['owner', 'viewer'], 'enterprise');
  token = members.owner!.token;
  viewerToken = members.viewer!.token;
});
afterAll(() => platform.close());

const validate = (yaml: unknown, version = '1.29', t = token) =>
  http.post<Validation>('/api/v2/k8s/validate', { token: t, body: { yaml, version } });
const errors = (v: Validation) => v.results.filter((r) => r.severity === 'error');

describe('POST /api/v2/k8s/validate with the corpus', () => {
  it('lists the versions 1.25 to 1.32', async () => {
    const res = await http.get('/api/v2/k8s/versions', { token: viewerToken });
    expect(res.body).toEqual({ versions: ['1.25', '1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32'] });
  });

  it('invalid.yaml: a type error at spec.replicas', async () => {
    const res = await validate(corpus(`${KC}/invalid.yaml`), '1.29', viewerToken);
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(errors(res.body)).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'spec.replicas' })]));
  });

  it('extra_property.yaml: an unknown-field warning; missing_kind.yaml: an error', async () => {
    const extra = await validate(corpus(`${KC}/extra_property.yaml`));
    expect(
      extra.body.results.some((r) => r.severity === 'warning' && /unknown|not allowed|not defined/i.test(r.message)),
    ).toBe(true);
    const missing = await validate(corpus(`${KC}/missing_kind.yaml`));
    expect(missing.body.valid).toBe(false);
    expect(missing.body.summary.errors).toBeGreaterThan(0);
  });

  it.each(['1.25', '1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32'])(
    'the Pluto extensions/v1beta1 Deployment is an apiVersion error naming apps/v1 in %s',
    async (version) => {
      const res = await validate(
        corpus('pluto/e2e/tests/assets/deprecated116/deployment-extensions-v1beta1.yaml'),
        version,
      );
      expect(res.body.valid).toBe(false);
      expect(errors(res.body)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ resource: 'Deployment/utilities', message: expect.stringContaining('apps/v1') }),
        ]),
      );
    },
  );

  it('kuard-made-up-kind.yaml: kind Ostrich is an error', async () => {
    const res = await validate(corpus('kubernetes-validate/tests/kuard-made-up-kind.yaml'));
    expect(errors(res.body).some((r) => r.message.includes('Ostrich'))).toBe(true);
  });
});

describe('API-server rules through the route (issue 15)', () => {
  it('answers the rule errors with their path and message, per version', async () => {
    const manifest = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: api}}',
      '    spec:',
      '      containers:',
      '      - name: web',
      '        image: nginx:1.27',
      '        env: [{name: 1VAR, value: x}]',
    ].join('\n');
    const old = await validate(manifest, '1.31');
    expect(old.status).toBe(200);
    expect(errors(old.body).map((r) => [r.path, r.resource])).toEqual([
      ['spec.template.spec.containers[0].env[0].name', 'Deployment/web'],
      ['spec.template.metadata.labels', 'Deployment/web'],
    ]);
    expect(errors(old.body)[1]?.message).toBe(
      'invalid value {"app":"api"}: `selector` does not match template `labels`',
    );
    const relaxed = await validate(manifest, '1.32');
    expect(errors(relaxed.body).map((r) => r.path)).toEqual(['spec.template.metadata.labels']);
  });
});

describe('CRD patterns on the linear-time engine (issue 16 item 2)', () => {
  it('a backreference or lookaround in a CRD pattern answers 400 saying so', async () => {
    const crd = (pattern: string) => widgetCrd([`        properties: {s: {type: string, pattern: '${pattern}'}}`]);
    const refused = await http.post<{ error: string }>('/api/v2/k8s/crd', { token, body: { yaml: crd('^(a)\\1$') } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(
      /^invalid CRD: spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\.s\.pattern: unsupported pattern: backreferences are not supported/,
    );
    const lookahead = await http.post<{ error: string }>('/api/v2/k8s/crd', { token, body: { yaml: crd('^(?!x)') } });
    expect(lookahead.status).toBe(400);
    expect(lookahead.body.error).toMatch(/lookaheads are not supported/);
  });
});

describe('request errors', () => {
  it('answers the spec messages', async () => {
    expect((await validate('')).body).toEqual({ error: 'yaml field is required' });
    expect((await http.post('/api/v2/k8s/validate', { token, body: { version: '1.29' } })).body).toEqual({
      error: 'yaml field is required',
    });
    expect((await validate(42)).body).toEqual({ error: 'invalid request body' });
    expect((await http.post('/api/v2/k8s/validate', { token, body: { yaml: 'a: 1', extra: true } })).body).toEqual({
      error: 'invalid request body',
    });
    const badVersion = await validate('kind: Pod', '1.99');
    expect(badVersion.status).toBe(400);
    expect(badVersion.body).toEqual({ error: expect.stringContaining('version must be one of 1.25') });
    expect((await http.post('/api/v2/k8s/validate', { body: { yaml: 'a: 1' } })).status).toBe(401);
  });

  it('answers 503 `K8s schema registry not initialized` until the registry has loaded', async () => {
    const server = await listen(
      createApp({ ...platform.services, validation: new ValidationEngine() }),
      '127.0.0.1',
      0,
      platform.services.readiness,
      createLogger('silent'),
    );
    try {
      const res = await httpClient(server.url).post('/api/v2/k8s/validate', {
        token,
        body: { yaml: 'kind: Pod', version: '1.29' },
      });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'K8s schema registry not initialized' });
    } finally {
      await server.shutdown(1000);
    }
  });
});

describe('hostile input through the route (docs/security.md A-29 to A-34)', () => {
  it('28/31: a 10 MB body is refused with 413 before parsing, and 10,000 documents with a 4xx', async () => {
    const big = await http.post('/api/v2/k8s/validate', {
      token,
      rawBody: JSON.stringify({ yaml: 'a: b\n'.repeat(2_200_000), version: '1.29' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(big.status).toBe(413);
    const docs = await validate('---\nkind: ConfigMap\n'.repeat(10_000));
    expect([400, 413]).toContain(docs.status);
    expect((await http.get('/healthz')).status).toBe(200);
  });

  it('29: a billion-laughs alias bomb answers 400 and the process stays healthy', async () => {
    const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
      .concat(
        ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(
          (k, i) =>
            `${k}: &${k} [${Array(9)
              .fill(`*${String.fromCharCode(97 + i)}`)
              .join(',')}]`,
        ),
      )
      .join('\n');
    const res = await validate(bomb);
    expect(res.status).toBe(400);
    expect((await http.get('/healthz')).status).toBe(200);
  });

  it('issue 16.1: aliases of scalars and keys count, and expansion past 10x the document answers 400', async () => {
    const head = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n';
    const keys = `${head}  &k ${'x'.repeat(100_000)}: 1\nspec:\n${Array.from({ length: 10 }, (_, i) => `  a${i}:\n    *k : 1\n`).join('')}`;
    const amplified = await validate(keys);
    expect(amplified.status).toBe(400);
    expect(JSON.stringify(amplified.body)).toMatch(/YAML aliases expand a document to more than 10 times its size/);
    expect(JSON.stringify(amplified.body).length).toBeLessThan(1000);
    const scalars = `${head}spec:\n  a: &v x\n${Array.from({ length: 11 }, (_, i) => `  b${i}: *v\n`).join('')}`;
    expect(await validate(scalars)).toMatchObject({
      status: 400,
      body: { error: 'manifest uses more than 10 YAML aliases' },
    });
    expect((await http.get('/healthz')).status).toBe(200);
  });

  it('30: 5,000 nested flow sequences and deep block maps answer 400, not 500', async () => {
    expect((await validate(`${'['.repeat(5000)}1${']'.repeat(5000)}`)).status).toBe(400);
    const deep = Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1';
    expect((await validate(deep)).status).toBe(400);
  });

  it('32: %YAML 1.1 does not enable merge keys or yes/no booleans; unknown tags are rejected', async () => {
    const merge = await validate(
      '%YAML 1.1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: x}\ndata:\n  <<: *m\n  enabled: no\n',
    );
    // No merge: `<<` stays an ordinary key holding the aliased map, and `no` stays the string "no". The key is then
    // twice wrong: its value is a map (schema type error) and `<<` is no ConfigMap key (API-server rule, issue 15).
    expect(merge.status).toBe(200);
    expect(merge.body.results).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'data["<<"]',
        message: expect.stringMatching(/invalid type/),
      }),
      expect.objectContaining({ severity: 'error', path: 'data["<<"]', message: expect.stringMatching(/config key/) }),
    ]);
    const tag = await validate('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  f: !!js/function "x"\n');
    expect(tag.status).toBe(400);
    const noBool = await validate('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  enabled: no\n');
    expect(noBool.body.valid).toBe(true);
  });

  it('33: duplicate keys answer 400 DUPLICATE_KEY', async () => {
    const res = await validate('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nmetadata: {name: y}\n');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/duplicate/i);
  });

  it('34: __proto__ keys do not pollute prototypes', async () => {
    await validate(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n__proto__: {isAdmin: true}\nconstructor: {prototype: {isAdmin: true}}\n',
    );
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('deprecations and the schema browser', () => {
  it('lists deprecations of a version', async () => {
    const res = await http.get<{ version: string; deprecations: Array<Record<string, string>> }>(
      '/api/v2/k8s/deprecations?version=1.25',
      { token: viewerToken },
    );
    expect(res.body.version).toBe('1.25');
    expect(res.body.deprecations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'PodSecurityPolicy',
          deprecatedApiVersion: 'policy/v1beta1',
          removedInVersion: '1.25',
        }),
      ]),
    );
    expect((await http.get('/api/v2/k8s/deprecations?version=2.0', { token })).status).toBe(400);
  });

  it('lists resources and serves a schema tree; unknown kinds are 404', async () => {
    const list = await http.get<{ resources: Array<{ kind: string; apiVersion: string; description: string }> }>(
      '/api/v2/k8s/resources?version=1.29',
      { token: viewerToken },
    );
    expect(list.body.resources).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'Deployment', apiVersion: 'apps/v1' })]),
    );
    const tree = await http.get<{ fields: Array<{ name: string }> }>(
      '/api/v2/k8s/resources/apps.v1.Deployment/schema?version=1.29',
      {
        token: viewerToken,
      },
    );
    expect(tree.status).toBe(200);
    expect(JSON.stringify(tree.body)).toContain('replicas');
    const missing = await http.get('/api/v2/k8s/resources/core.v1.Ostrich/schema?version=1.29', { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'resource schema not found' });
  });
});

describe('CRDs (Enterprise plan)', () => {
  const crdYaml = () => corpus(`${KC}/registry/sagemaker.aws.amazon.com_trainingjobs.yaml`);

  it('are refused on lower plans with a message naming the plan, and to viewers', async () => {
    const free = await makeOrg(platform, ['owner'], 'free');
    const res = await http.post('/api/v2/k8s/crd', { token: free.members.owner!.token, body: { yaml: crdYaml() } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Custom resource definitions require the Enterprise plan' });
    expect((await http.post('/api/v2/k8s/crd', { token: viewerToken, body: { yaml: crdYaml() } })).status).toBe(403);
  });

  it('answers 400 invalid CRD with the reason for a broken definition', async () => {
    const res = await http.post<{ error: string }>('/api/v2/k8s/crd', {
      token,
      body: {
        yaml: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x}\nspec: {}\n',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^invalid CRD/);
  });

  it('once registered, make test_crd.yaml validate, for this organization only, until deleted', async () => {
    const before = await validate(corpus(`${KC}/test_crd.yaml`));
    expect(before.body.valid).toBe(false);

    const created = await http.post<{ id: string; kind: string }>('/api/v2/k8s/crd', {
      token,
      body: { yaml: crdYaml() },
    });
    expect(created.status).toBe(201);
    expect(created.body.kind).toBe('TrainingJob');
    const again = await http.post('/api/v2/k8s/crd', { token, body: { yaml: crdYaml() } });
    expect(again.status).toBe(200);

    const after = await validate(corpus(`${KC}/test_crd.yaml`));
    expect(after.body).toMatchObject({ valid: true, summary: { errors: 0 } });
    const list = await http.get<{ resources: Array<{ kind: string; custom: boolean }> }>(
      '/api/v2/k8s/resources?version=1.29',
      { token },
    );
    expect(list.body.resources).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'TrainingJob', custom: true })]),
    );
    const tree = await http.get('/api/v2/k8s/resources/sagemaker.aws.amazon.com.v1.TrainingJob/schema?version=1.29', {
      token,
    });
    expect(tree.status).toBe(200);

    const other = await makeOrg(platform, ['owner'], 'enterprise');
    const otherToken = other.members.owner!.token;
    expect((await validate(corpus(`${KC}/test_crd.yaml`), '1.29', otherToken)).body.valid).toBe(false);
    expect((await http.get('/api/v2/k8s/crds', { token: otherToken })).body).toEqual({ items: [] });
    expect((await http.delete(`/api/v2/k8s/crds/${created.body.id}`, { token: otherToken })).status).toBe(404);

    const audit = await http.get<{ items: Array<{ action: string }> }>('/api/v2/audit-logs?action=k8s.crd.*', {
      token,
    });
    expect(audit.body.items.map((e) => e.action)).toEqual(['k8s.crd.update', 'k8s.crd.register']);

    expect((await http.delete(`/api/v2/k8s/crds/${created.body.id}`, { token })).status).toBe(204);
    expect((await validate(corpus(`${KC}/test_crd.yaml`))).body.valid).toBe(false);
  });
});

describe('route and engine agree on every corpus manifest', () => {
  const manifests = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const full = path.join(dir, d.name);
      if (d.isDirectory()) return manifests(full);
      return /\.(ya?ml|json)$/.test(d.name) ? [path.relative(CORPUS, full)] : [];
    });

  it('answers exactly what the engine computes (whose corpus expectations test/tooling/validation checks)', async () => {
    const files = manifests(CORPUS);
    expect(files.length).toBeGreaterThan(50);
    const engine = platform.services.validation;
    for (const file of files) {
      const yaml = corpus(file);
      const res = await validate(yaml, '1.29', viewerToken);
      let expected: unknown;
      if (yaml.trim() === '') {
        // The spec's empty-manifest rule for the route; the engine and CLI call such a file valid with no resources.
        expected = { error: 'yaml field is required' };
      } else
        try {
          expected = engine.validate(yaml, '1.29');
        } catch (err) {
          expected = { error: (err as Error).message };
        }
      expect({ file, body: res.body }).toEqual({ file, body: expected });
    }
  });
});
