import { checkPolicies, releasePolicyCheck } from '../../../src/policies/policy-check';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { systemCaller } from '../../../src/iam/system-caller';

interface RuleResult {
  ruleId: string;
  type: string;
  mode: string;
  passed: boolean;
  skipped: boolean;
  violations: { file: string; kind: string; name: string; path: string; message: string }[];
  violationCount: number;
}
interface Evaluation {
  blocked: boolean;
  production: boolean;
  files: string[];
  validation: { errors: string; deprecations: string };
  results: { policyId: string; name: string; blocked: boolean; passed: boolean; results: RuleResult[] }[];
}
interface PolicyView {
  id: string;
  project: string;
  name: string;
  mode: string;
  enabled: boolean;
  rules: { id: string; type: string; mode?: string }[];
  validation: { errors: string; deprecations: string };
}

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let other: Awaited<ReturnType<typeof makeOrg>>;
let admin: string;
let viewer: string;
let tenantIds: Record<string, string>;

const RULES = [
  { type: 'required-labels', labels: ['team'] },
  { type: 'allowed-registries', registries: ['registry.example.com/shop'] },
  { type: 'resources-required', mode: 'audit' },
  { type: 'no-latest-tag' },
  { type: 'replicas-bounds', min: 2, max: 5 },
];

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner', 'admin', 'viewer']);
  other = await makeOrg(platform, ['owner']);
  admin = org.members.admin!.token;
  viewer = org.members.viewer!.token;
  const prod = await http.post('/api/v2/org/environments', { token: admin, body: { slug: 'prod', production: true } });
  expect(prod.status).toBe(201);
  tenantIds = await makeProject(platform, admin, 'shop', ['acme']);
  await makeProject(platform, admin, 'blog', []);
  await makeProject(platform, other.members.owner!.token, 'shop', []);
}, 120_000);
afterAll(() => platform.close());

async function createPolicy(body: Record<string, unknown>, token = admin) {
  return http.post<PolicyView>('/api/v2/policies', { token, body: { project: 'shop', ...body } });
}

describe('policies CRUD', () => {
  let policy: PolicyView;

  it('creates a policy with rule ids, default mode and the project validation settings read-only', async () => {
    const res = await createPolicy({ name: 'baseline', rules: RULES });
    expect([res.status, res.text.slice(0, 300)]).toEqual([201, expect.any(String)]);
    policy = res.body;
    expect(policy).toMatchObject({ project: 'shop', name: 'baseline', mode: 'enforce', enabled: true });
    expect(policy.rules.map((r) => r.id)).toEqual([
      'required-labels-1',
      'allowed-registries-2',
      'resources-required-3',
      'no-latest-tag-4',
      'replicas-bounds-5',
    ]);
    expect(policy.validation).toEqual({ errors: 'block', deprecations: 'warn' });
    expect((await createPolicy({ name: 'baseline', rules: RULES })).status).toBe(409);
    const audit = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id, action: 'policy.create' })
      .first('resource_id', 'category', 'project_id');
    expect(audit).toMatchObject({ resource_id: policy.id, category: 'configuration' });
  });

  it('lists by project with cursor pagination, reads, replaces and deletes', async () => {
    await createPolicy({ name: 'second', rules: [{ type: 'no-latest-tag' }] });
    await http.post('/api/v2/policies', {
      token: admin,
      body: { project: 'blog', name: 'blog only', rules: [{ type: 'no-latest-tag' }] },
    });
    const first = await http.get<{ items: PolicyView[]; nextCursor: string }>('/api/v2/policies?project=shop&limit=1', {
      token: viewer,
    });
    expect(first.body.items.map((p) => p.name)).toEqual(['baseline']);
    const second = await http.get<{ items: PolicyView[]; nextCursor: string | null }>(
      `/api/v2/policies?project=shop&limit=1&cursor=${first.body.nextCursor}`,
      { token: viewer },
    );
    expect(second.body.items.map((p) => p.name)).toEqual(['second']);
    const all = await http.get<{ items: PolicyView[] }>('/api/v2/policies', { token: viewer });
    expect(all.body.items.map((p) => `${p.project}/${p.name}`)).toEqual([
      'shop/baseline',
      'blog/blog only',
      'shop/second',
    ]);

    expect((await http.get(`/api/v2/policies/${policy.id}`, { token: viewer })).body).toMatchObject({
      name: 'baseline',
    });
    const replaced = await http.put<PolicyView>(`/api/v2/policies/${policy.id}`, {
      token: admin,
      body: { project: 'shop', name: 'baseline', mode: 'audit', rules: RULES },
    });
    expect([replaced.status, replaced.body.mode]).toEqual([200, 'audit']);
    const moved = await http.put(`/api/v2/policies/${policy.id}`, {
      token: admin,
      body: { project: 'blog', name: 'baseline', rules: RULES },
    });
    expect([moved.status, moved.body]).toEqual([400, { error: 'a policy cannot move to another project' }]);
    const renamedOnto = await http.put(`/api/v2/policies/${policy.id}`, {
      token: admin,
      body: { project: 'shop', name: 'second', rules: RULES },
    });
    expect(renamedOnto.status).toBe(409);
    // Back to enforce for the evaluation tests below.
    await http.put(`/api/v2/policies/${policy.id}`, {
      token: admin,
      body: { project: 'shop', name: 'baseline', rules: RULES },
    });

    const doomed = (await http.get<{ items: PolicyView[] }>('/api/v2/policies?project=blog', { token: viewer })).body
      .items[0]!;
    expect((await http.delete(`/api/v2/policies/${doomed.id}`, { token: admin })).status).toBe(204);
    expect((await http.get(`/api/v2/policies/${doomed.id}`, { token: admin })).status).toBe(404);
    const actions = (
      await platform.services.db('audit_log').where({ organization_id: org.org.id }).whereLike('action', 'policy.%')
    ).map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['policy.create', 'policy.update', 'policy.delete']));
  });

  it('answers 400 with a plain reason for invalid bodies', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { name: 'x', rules: [{ type: 'bogus' }] },
        'invalid request body: rules.0.type must be one of: required-labels, allowed-registries, resources-required, no-latest-tag, replicas-bounds',
      ],
      [{ name: 'x', rules: [{ type: 'required-labels' }] }, 'invalid request body: rules.0.labels is required'],
      [
        { name: 'x', rules: [{ type: 'no-latest-tag', labels: ['a'] }] },
        'invalid request body: unknown field rules.0.labels',
      ],
      [{ name: 'x', rules: [{ type: 'replicas-bounds' }] }, 'rule replicas-bounds-1: replicas-bounds needs min or max'],
      [
        { name: 'x', rules: [{ type: 'replicas-bounds', min: 5, max: 2 }] },
        'rule replicas-bounds-1: min must not exceed max',
      ],
      [
        {
          name: 'x',
          rules: [
            { type: 'no-latest-tag', id: 'a' },
            { type: 'no-latest-tag', id: 'a' },
          ],
        },
        'rule id a is used twice',
      ],
      [{ name: 'x', rules: [] }, 'invalid request body: rules must NOT have fewer than 1 items'],
    ];
    for (const [body, error] of cases) {
      const res = await createPolicy(body);
      expect([res.status, res.body]).toEqual([400, { error }]);
    }
    // A project named in the body that the active organization lacks: the spec's 400 (line 336), not 404.
    const nope = await createPolicy({ project: 'nope', name: 'x', rules: RULES });
    expect([nope.status, nope.body]).toEqual([400, { error: 'project not found in active organization' }]);
  });

  it('lets viewers read and evaluate but not write', async () => {
    expect((await createPolicy({ name: 'v', rules: RULES }, viewer)).status).toBe(403);
    expect(
      (
        await http.put(`/api/v2/policies/${policy.id}`, {
          token: viewer,
          body: { project: 'shop', name: 'v', rules: RULES },
        })
      ).status,
    ).toBe(403);
    expect((await http.delete(`/api/v2/policies/${policy.id}`, { token: viewer })).status).toBe(403);
    expect(
      (await http.post('/api/v2/policies/evaluate', { token: viewer, body: { project: 'shop', manifests: '' } }))
        .status,
    ).toBe(200);
  });

  it("answers 404 for another organization's policy, 400 for its project named in a query or body", async () => {
    const stranger = other.members.owner!.token;
    expect((await http.get(`/api/v2/policies/${policy.id}`, { token: stranger })).status).toBe(404);
    expect((await http.delete(`/api/v2/policies/${policy.id}`, { token: stranger })).status).toBe(404);
    const put = await http.put(`/api/v2/policies/${policy.id}`, {
      token: stranger,
      body: { project: 'shop', name: 'stolen', rules: RULES },
    });
    expect([put.status, put.body]).toEqual([404, { error: 'policy not found' }]);
    expect((await http.get<{ items: unknown[] }>('/api/v2/policies', { token: stranger })).body.items).toEqual([]);
    const byQuery = await http.get('/api/v2/policies?project=blog', { token: stranger });
    expect([byQuery.status, byQuery.body]).toEqual([400, { error: 'project not found in active organization' }]);
    const byBody = await createPolicy({ project: 'blog', name: 'stolen', rules: RULES }, stranger);
    expect([byBody.status, byBody.body]).toEqual([400, { error: 'project not found in active organization' }]);
  });
});

const DEPLOYMENT = (image: string, replicas: number, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: { team: shop }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - name: web
        image: ${image}
        resources: { requests: { cpu: 100m, memory: 64Mi }, limits: { cpu: "1", memory: 128Mi } }${extra}
`;

async function evaluate(body: Record<string, unknown>) {
  const res = await http.post<Evaluation>('/api/v2/policies/evaluate', {
    token: viewer,
    body: { project: 'shop', ...body },
  });
  expect([res.status, res.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
  return res.body;
}
const byRule = (e: Evaluation) => Object.fromEntries(e.results[0]!.results.map((r) => [r.type, r]));

describe('POST /api/v2/policies/evaluate', () => {
  it('passes a compliant manifest set in production', async () => {
    const result = await evaluate({
      manifests: DEPLOYMENT('registry.example.com/shop/web:1.2.3', 3),
      environment: 'prod',
    });
    expect(result).toMatchObject({ blocked: false, production: true });
    expect(result.results[0]!.results.every((r) => r.passed)).toBe(true);
  });

  it('reports each rule type failing, blocking on enforce rules only', async () => {
    const bad = `${DEPLOYMENT('nginx', 9)}---\napiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers: [{ name: c, image: registry.example.com/shop/c:1 }]\n`;
    const result = await evaluate({ files: [{ path: 'apps/web.yaml', content: bad }], environment: 'prod' });
    expect(result.blocked).toBe(true);
    const rules = byRule(result);
    expect(rules['required-labels']!.violations).toEqual([
      { file: 'apps/web.yaml', kind: 'Pod', name: 'p', path: 'metadata.labels', message: 'label "team" is required' },
    ]);
    expect(rules['allowed-registries']!.violations[0]!.message).toBe(
      'image "nginx" comes from docker.io, which is not allowed',
    );
    expect(rules['resources-required']).toMatchObject({ mode: 'audit', passed: false, violationCount: 4 });
    expect(rules['no-latest-tag']!.violations[0]!.message).toBe('image "nginx" has no tag, so it runs latest');
    expect(rules['replicas-bounds']!.violations[0]!.message).toBe('9 replicas is above the production maximum of 5');
  });

  it('does not block when only audit rules fail, and skips production bounds outside production', async () => {
    const noLimits = DEPLOYMENT('registry.example.com/shop/web:1', 1).replace(
      ', limits: { cpu: "1", memory: 128Mi }',
      '',
    );
    const result = await evaluate({ manifests: noLimits, environment: 'dev' });
    expect(result).toMatchObject({ blocked: false, production: false });
    expect(byRule(result)['resources-required']).toMatchObject({ passed: false, mode: 'audit' });
    expect(byRule(result)['replicas-bounds']).toMatchObject({ passed: true, skipped: true });
  });

  it('evaluates what the generator renders for a tenant and environment, without committing', async () => {
    const prod = await evaluate({ environment: 'prod', tenantId: tenantIds.acme });
    expect(prod.files).toEqual([
      'tenants/acme/prod/web/configmap.yaml',
      'tenants/acme/prod/web/deployment.yaml',
      'tenants/acme/prod/web/service.yaml',
    ]);
    const rules = byRule(prod);
    // The generated objects carry the platform's labels, not `team`.
    expect(rules['required-labels']!.violationCount).toBe(3);
    expect(rules['allowed-registries']!.passed).toBe(true);
    expect(rules['resources-required']!.violations.map((v) => v.path)).toEqual([
      'spec.template.spec.containers[0].resources.limits.cpu',
      'spec.template.spec.containers[0].resources.limits.memory',
    ]);
    expect(rules['no-latest-tag']!.passed).toBe(true);
    expect(rules['replicas-bounds']!.violations[0]!.message).toBe('1 replicas is below the production minimum of 2');
    expect(prod.blocked).toBe(true);
    const dev = await evaluate({ environment: 'dev', tenantId: tenantIds.acme });
    expect(byRule(dev)['replicas-bounds']!.skipped).toBe(true);
    expect((await http.get('/api/v2/projects/shop/commits', { token: viewer })).body).toEqual({ items: [] });
  });

  it('refuses ambiguous or unknown sources with 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'give exactly one of manifests, files, or tenantId with environment'],
      [{ manifests: '', files: [] }, 'give exactly one of manifests, files, or tenantId with environment'],
      [{ tenantId: tenantIds.acme }, 'tenantId needs an environment'],
      [{ manifests: '', environment: 'qa' }, 'environment qa is not part of the project'],
      [
        { environment: 'prod', tenantId: '00000000-0000-4000-8000-000000000000' },
        'tenantId is not a tenant of the project',
      ],
    ];
    for (const [body, error] of cases) {
      const res = await http.post('/api/v2/policies/evaluate', { token: viewer, body: { project: 'shop', ...body } });
      expect([res.status, res.body]).toEqual([400, { error }]);
    }
    const hostile = await http.post('/api/v2/policies/evaluate', {
      token: viewer,
      body: { project: 'shop', manifests: 'a: &a [1]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n' },
    });
    expect(hostile.status).toBe(400);
  });

  it('gives the release activity the same answer through checkPolicies', async () => {
    const project = await platform.services.projects.projects.projectOf(
      systemCaller('test', org.org.id, 'policies-test'),
      'shop',
    );
    const outcome = await checkPolicies(
      platform.services.db,
      org.org.id,
      project.id,
      new Map([['web.yaml', DEPLOYMENT('web:latest', 3)]]),
      { production: true },
    );
    expect(outcome.blocked).toBe(true);
    expect(outcome.results.map((r) => r.name)).toEqual(['baseline', 'second']);

    const port = await releasePolicyCheck(platform.services.db, {
      organizationId: org.org.id,
      projectId: project.id,
      files: new Map([['web.yaml', DEPLOYMENT('web:latest', 3)]]),
      production: true,
    });
    expect(port).toMatchObject({
      blocked: true,
      failedEnforced: ['baseline/allowed-registries-2', 'baseline/no-latest-tag-4', 'second/no-latest-tag-1'],
      violations: 3,
      summary: { policies: 2, rules: 6, failedEnforce: 3, failedAudit: 0 },
    });
  });
});
