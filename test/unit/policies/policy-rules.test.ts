import { parseImageReference, registryAllows } from '../../../src/policies/image-reference';
import { blocks, evaluateRules, MAX_VIOLATIONS_PER_RULE, type PolicyRule } from '../../../src/policies/policy-rules';

function deployment(opts: { image?: string; labels?: Record<string, string>; replicas?: number; resources?: unknown }) {
  const labels = Object.entries(opts.labels ?? { team: 'shop' })
    .map(([k, v]) => `    ${k}: ${v}`)
    .join('\n');
  const resources = opts.resources === undefined ? '' : `\n        resources: ${JSON.stringify(opts.resources)}`;
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
${labels || '    {}'}
spec:
${opts.replicas === undefined ? '' : `  replicas: ${opts.replicas}\n`}  template:
    spec:
      containers:
      - name: web
        image: ${opts.image ?? 'registry.example.com/shop/web:1.0.0'}${resources}
`;
}

const FULL = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } };
const prod = { production: true };
const one = (text: string) => new Map([['app.yaml', text]]);
const run = (rule: PolicyRule, text: string, ctx = prod) => evaluateRules(one(text), [rule], ctx)[0]!;

describe('required labels', () => {
  const rule: PolicyRule = { id: 'labels', type: 'required-labels', mode: 'enforce', labels: ['team', 'owner'] };

  it('passes when every object carries every label', () => {
    expect(run(rule, deployment({ labels: { team: 'shop', owner: 'ana' } }))).toMatchObject({
      passed: true,
      violationCount: 0,
    });
  });

  it('names each missing label with the object and file', () => {
    const result = run(rule, deployment({ labels: { team: 'shop' } }));
    expect(result.passed).toBe(false);
    expect(result.violations).toEqual([
      {
        file: 'app.yaml',
        kind: 'Deployment',
        name: 'web',
        path: 'metadata.labels',
        message: 'label "owner" is required',
      },
    ]);
  });

  it('checks only the kinds it names', () => {
    const onlyServices: PolicyRule = { ...rule, kinds: ['Service'] };
    expect(run(onlyServices, deployment({ labels: {} })).passed).toBe(true);
    const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n';
    expect(run(onlyServices, `${deployment({})}---\n${service}`).violationCount).toBe(2);
  });
});

describe('allowed registries', () => {
  const rule: PolicyRule = {
    id: 'registries',
    type: 'allowed-registries',
    mode: 'enforce',
    registries: ['registry.example.com/shop', 'ghcr.io'],
  };

  it('passes images under an allowed host or repository prefix', () => {
    expect(run(rule, deployment({ image: 'registry.example.com/shop/web:1' })).passed).toBe(true);
    expect(run(rule, deployment({ image: 'ghcr.io/acme/app@sha256:abc' })).passed).toBe(true);
  });

  it('refuses other registries, prefixes that only share characters, and Docker Hub images without a host', () => {
    for (const image of ['quay.io/x/y:1', 'registry.example.com/shop-evil/web:1', 'nginx:1.25']) {
      const result = run(rule, deployment({ image }));
      expect([image, result.passed]).toEqual([image, false]);
    }
    expect(run(rule, deployment({ image: 'nginx:1.25' })).violations[0]?.message).toContain('comes from docker.io');
    expect(run({ ...rule, registries: ['docker.io'] }, deployment({ image: 'nginx:1.25' })).passed).toBe(true);
  });

  it('reads image references like docker pull', () => {
    expect(parseImageReference('nginx')).toEqual({ registry: 'docker.io', repository: 'library/nginx' });
    expect(parseImageReference('localhost:5000/app:2')).toEqual({
      registry: 'localhost:5000',
      repository: 'app',
      tag: '2',
    });
    expect(parseImageReference('acme/app:1')).toMatchObject({ registry: 'docker.io', repository: 'acme/app' });
    expect(registryAllows('index.docker.io', parseImageReference('acme/app'))).toBe(true);
  });
});

describe('resources required', () => {
  const rule: PolicyRule = { id: 'resources', type: 'resources-required', mode: 'audit' };

  it('passes containers with cpu and memory requests and limits', () => {
    expect(run(rule, deployment({ resources: FULL })).passed).toBe(true);
  });

  it('names each missing amount, and can ask for requests only', () => {
    const result = run(rule, deployment({ resources: { requests: { cpu: '100m' } } }));
    expect(result.violations.map((v) => v.path)).toEqual([
      'spec.template.spec.containers[0].resources.requests.memory',
      'spec.template.spec.containers[0].resources.limits.cpu',
      'spec.template.spec.containers[0].resources.limits.memory',
    ]);
    const requestsOnly: PolicyRule = { ...rule, requests: ['cpu'], limits: [] };
    expect(run(requestsOnly, deployment({ resources: { requests: { cpu: '100m' } } })).passed).toBe(true);
  });

  it('looks into CronJob templates and init containers', () => {
    const cron = `apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly }
spec:
  jobTemplate:
    spec:
      template:
        spec:
          initContainers: [{ name: init, image: a/b:1 }]
          containers: [{ name: job, image: a/b:1, resources: ${JSON.stringify(FULL)} }]
`;
    expect(run(rule, cron).violations.map((v) => v.path)).toEqual([
      'spec.jobTemplate.spec.template.spec.initContainers[0].resources.requests.cpu',
      'spec.jobTemplate.spec.template.spec.initContainers[0].resources.requests.memory',
      'spec.jobTemplate.spec.template.spec.initContainers[0].resources.limits.cpu',
      'spec.jobTemplate.spec.template.spec.initContainers[0].resources.limits.memory',
    ]);
  });
});

describe('no latest tag', () => {
  const rule: PolicyRule = { id: 'pinned', type: 'no-latest-tag', mode: 'enforce' };

  it('passes tagged and digest-pinned images', () => {
    expect(run(rule, deployment({ image: 'registry.example.com/shop/web:1.0.0' })).passed).toBe(true);
    expect(run(rule, deployment({ image: 'registry.example.com/web@sha256:0123' })).passed).toBe(true);
  });

  it('fails latest and no tag at all (a registry port is not a tag)', () => {
    expect(run(rule, deployment({ image: 'web:latest' })).violations[0]?.message).toContain('uses the latest tag');
    expect(run(rule, deployment({ image: 'localhost:5000/web' })).violations[0]?.message).toContain('has no tag');
  });
});

describe('replicas bounds for production', () => {
  const rule: PolicyRule = { id: 'replicas', type: 'replicas-bounds', mode: 'enforce', min: 2, max: 10 };

  it('passes within bounds and is skipped outside production', () => {
    expect(run(rule, deployment({ replicas: 3 })).passed).toBe(true);
    expect(run(rule, deployment({ replicas: 1 }), { production: false })).toMatchObject({
      passed: true,
      skipped: true,
    });
  });

  it('fails below the minimum (an absent field means 1) and above the maximum', () => {
    expect(run(rule, deployment({})).violations[0]?.message).toBe('1 replicas is below the production minimum of 2');
    expect(run(rule, deployment({ replicas: 11 })).violations[0]?.message).toBe(
      '11 replicas is above the production maximum of 10',
    );
  });
});

describe('bounds and modes', () => {
  it('lists at most MAX_VIOLATIONS_PER_RULE violations and counts the rest', () => {
    const many = Array.from({ length: 150 }, () => deployment({ image: 'web:latest' })).join('---\n');
    const result = run({ id: 'pinned', type: 'no-latest-tag', mode: 'enforce' }, many);
    expect(result.violations).toHaveLength(MAX_VIOLATIONS_PER_RULE);
    expect(result.violationCount).toBe(150);
  });

  it('blocks only on a failed enforce rule', () => {
    const text = deployment({ image: 'web:latest' });
    const audit = evaluateRules(one(text), [{ id: 'a', type: 'no-latest-tag', mode: 'audit' }], prod);
    expect(blocks(audit)).toBe(false);
    const enforce = evaluateRules(one(text), [{ id: 'e', type: 'no-latest-tag', mode: 'enforce' }], prod);
    expect(blocks(enforce)).toBe(true);
  });

  it('refuses a hostile file through the bounded parser and skips documents that are not objects', () => {
    expect(() =>
      evaluateRules(one('a: &a [1]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n'), [], prod),
    ).toThrow(/alias/i);
    const rule: PolicyRule = { id: 'pinned', type: 'no-latest-tag', mode: 'enforce' };
    expect(run(rule, '- just\n- a list\n---\nnot: [valid\n').passed).toBe(true);
  });
});
