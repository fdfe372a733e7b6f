/** The eight checks of the spec's table, one behaviour at a time, on small manifests. */
import { stringify } from 'yaml';
import type { ValidationResponse } from '../../../src/validation';
import { bySeverity, engine } from './corpus';

function deployment(container: Record<string, unknown>, podSpec: Record<string, unknown> = {}): string {
  return stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27', ...container }], ...podSpec },
      },
    },
  });
}

const GOOD_CONTAINER = {
  resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
  livenessProbe: { httpGet: { path: '/', port: 80 } },
  readinessProbe: { httpGet: { path: '/', port: 'http' } },
};

async function validate(yamlText: string, version = '1.29'): Promise<ValidationResponse> {
  return (await engine()).validate(yamlText, version);
}

const C = 'spec.template.spec.containers[0]';

describe('required fields (error)', () => {
  it('a well-formed Deployment has no results at all', async () => {
    expect(await validate(deployment(GOOD_CONTAINER))).toEqual({
      valid: true,
      results: [],
      summary: { errors: 0, warnings: 0, info: 0 },
    });
  });

  it.each([
    ['image', `${C}.image`],
    ['name', `${C}.name`],
  ])('a container without %s', async (field, path) => {
    const container: Record<string, unknown> = { ...GOOD_CONTAINER };
    const yaml = deployment(container).replace(
      field === 'image' ? /\s+image: nginx:1.27/ : /\s+name: web\n(\s+)image/,
      field === 'image' ? '' : '\n$1image',
    );
    const errors = bySeverity(await validate(yaml), 'error');
    expect(errors).toEqual([
      expect.objectContaining({ path, message: `required field "${field}" is missing`, resource: 'Deployment/web' }),
    ]);
  });

  it('an empty image is as missing as no image', async () => {
    const errors = bySeverity(await validate(deployment({ ...GOOD_CONTAINER, image: '' })), 'error');
    expect(errors).toEqual([expect.objectContaining({ path: `${C}.image`, message: 'must not be empty' })]);
  });

  it('a pod spec needs at least one container', async () => {
    const yaml = stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } });
    expect(bySeverity(await validate(yaml), 'error')).toEqual([expect.objectContaining({ path: 'spec.containers' })]);
  });

  it('required fields of the upstream schema (Deployment spec.selector)', async () => {
    const yaml = deployment(GOOD_CONTAINER).replace(/ {2}selector:\n {4}matchLabels:\n {6}app: web\n/, '');
    expect(bySeverity(await validate(yaml), 'error')).toEqual([expect.objectContaining({ path: 'spec.selector' })]);
  });
});

describe('field types (error)', () => {
  it.each([
    [
      { ...GOOD_CONTAINER, ports: [{ containerPort: '80' }] },
      `${C}.ports[0].containerPort`,
      /expected integer, got string "80"/,
    ],
    [
      { ...GOOD_CONTAINER, ports: [{ containerPort: 2 ** 31 }] },
      `${C}.ports[0].containerPort`,
      /invalid int32 value 2147483648/,
    ],
    [{ ...GOOD_CONTAINER, args: 'run' }, `${C}.args`, /expected array, got string/],
    [
      { ...GOOD_CONTAINER, resources: { requests: { cpu: '100 m' } } },
      `${C}.resources.requests.cpu`,
      /invalid quantity value "100 m"/,
    ],
    [
      { ...GOOD_CONTAINER, resources: { requests: { cpu: true } } },
      `${C}.resources.requests.cpu`,
      /expected string or number, got boolean/,
    ],
    [
      { ...GOOD_CONTAINER, livenessProbe: { httpGet: { port: 1.5 } } },
      `${C}.livenessProbe.httpGet.port`,
      /expected integer or string/,
    ],
  ])('%j', async (container, path, message) => {
    const errors = bySeverity(await validate(deployment(container)), 'error');
    expect(errors).toEqual([expect.objectContaining({ path, message: expect.stringMatching(message) })]);
  });

  it('quantities take every form ParseQuantity takes', async () => {
    for (const cpu of ['1', '0.5', '.5', '100m', '1e3', '2Ki', '1.5Gi', '+1', 250]) {
      const response = await validate(
        deployment({ ...GOOD_CONTAINER, resources: { requests: { cpu }, limits: { cpu } } }),
      );
      expect([cpu, response.results]).toEqual([cpu, []]);
    }
  });

  it('Secret data must be base64', async () => {
    const secret = (data: string): string =>
      stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: data } });
    expect((await validate(secret('aGVsbG8='))).valid).toBe(true);
    expect(bySeverity(await validate(secret('hello!')), 'error')).toEqual([
      expect.objectContaining({ path: 'data.k', message: expect.stringMatching(/invalid byte/) }),
    ]);
  });

  it('map keys that are not identifiers are quoted in paths', async () => {
    const yaml = stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', labels: { 'app.kubernetes.io/name': 5 } },
    });
    expect(bySeverity(await validate(yaml), 'error')).toEqual([
      expect.objectContaining({ path: 'metadata.labels["app.kubernetes.io/name"]' }),
    ]);
  });
});

describe('enum values (error)', () => {
  it.each([
    [{ imagePullPolicy: 'Sometimes' }, {}, `${C}.imagePullPolicy`, 'Always, IfNotPresent, Never'],
    [{ terminationMessagePolicy: 'Stderr' }, {}, `${C}.terminationMessagePolicy`, 'File, FallbackToLogsOnError'],
    [{ ports: [{ containerPort: 53, protocol: 'ICMP' }] }, {}, `${C}.ports[0].protocol`, 'TCP, UDP, SCTP'],
    [{}, { restartPolicy: 'Sometimes' }, 'spec.template.spec.restartPolicy', 'Always, OnFailure, Never'],
    [
      {},
      { dnsPolicy: 'Google' },
      'spec.template.spec.dnsPolicy',
      'ClusterFirstWithHostNet, ClusterFirst, Default, None',
    ],
  ])('%j %j', async (container, podSpec, path, allowed) => {
    const errors = bySeverity(await validate(deployment({ ...GOOD_CONTAINER, ...container }, podSpec)), 'error');
    expect(errors).toEqual([
      expect.objectContaining({ path, message: expect.stringContaining(`must be one of ${allowed}`) }),
    ]);
  });

  it('Service type and port protocol', async () => {
    const yaml = stringify({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { type: 'Public', ports: [{ port: 80, protocol: 'HTTP' }] },
    });
    expect(bySeverity(await validate(yaml), 'error').map((e) => e.path)).toEqual([
      'spec.ports[0].protocol',
      'spec.type',
    ]);
  });

  it('Deployment strategy type', async () => {
    const yaml = deployment(GOOD_CONTAINER).replace(
      'spec:\n  selector',
      'spec:\n  strategy:\n    type: BlueGreen\n  selector',
    );
    expect(bySeverity(await validate(yaml), 'error')).toEqual([
      expect.objectContaining({ path: 'spec.strategy.type' }),
    ]);
  });

  it('an empty value that the API server defaults is accepted', async () => {
    expect((await validate(deployment({ ...GOOD_CONTAINER, imagePullPolicy: '' }, { dnsPolicy: '' }))).valid).toBe(
      true,
    );
  });
});

describe('apiVersion and kind (error), deprecation (warning)', () => {
  const hpa = (apiVersion: string): string =>
    stringify({
      apiVersion,
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
    });

  it('autoscaling/v2beta2 is a deprecation warning in 1.25 and an error from 1.26, naming autoscaling/v2', async () => {
    const in125 = await validate(hpa('autoscaling/v2beta2'), '1.25');
    expect(in125.valid).toBe(true);
    expect(bySeverity(in125, 'warning')).toEqual([
      expect.objectContaining({
        path: 'apiVersion',
        message: expect.stringMatching(
          /deprecated since Kubernetes 1\.23 and will be removed in 1\.26; use autoscaling\/v2$/,
        ),
      }),
    ]);
    const in126 = await validate(hpa('autoscaling/v2beta2'), '1.26');
    expect(bySeverity(in126, 'error')).toEqual([
      expect.objectContaining({ path: 'apiVersion', message: expect.stringContaining('use autoscaling/v2') }),
    ]);
    expect((await validate(hpa('autoscaling/v2'), '1.26')).results).toEqual([]);
  });

  it('flowcontrol v1beta3 is deprecated in 1.29 (use v1) and gone in 1.32', async () => {
    const flow = stringify({
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'f' },
      spec: { priorityLevelConfiguration: { name: 'global-default' } },
    });
    expect(bySeverity(await validate(flow, '1.28'), 'warning')).toEqual([]);
    expect(bySeverity(await validate(flow, '1.29'), 'warning')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('use flowcontrol.apiserver.k8s.io/v1') }),
    ]);
    expect((await validate(flow, '1.32')).valid).toBe(false);
  });

  it('an alpha API version is a warning', async () => {
    const vap = stringify({
      apiVersion: 'networking.k8s.io/v1alpha1',
      kind: 'IPAddress',
      metadata: { name: '10.0.0.1' },
      spec: { parentRef: { resource: 'services', name: 'x' } },
    });
    expect(bySeverity(await validate(vap, '1.29'), 'warning')).toEqual([
      expect.objectContaining({ path: 'apiVersion', message: expect.stringContaining('alpha') }),
    ]);
  });

  it('a kind served under another apiVersion names it', async () => {
    const yaml = stringify({ apiVersion: 'batch/v2', kind: 'Job', metadata: { name: 'j' } });
    expect(bySeverity(await validate(yaml), 'error')).toEqual([
      expect.objectContaining({ path: 'apiVersion', message: expect.stringContaining('served as batch/v1') }),
    ]);
  });

  it('apiVersion and kind must be strings', async () => {
    const response = await validate('apiVersion: 1\nkind: [Pod]\n');
    expect(
      bySeverity(response, 'error')
        .map((e) => e.path)
        .sort(),
    ).toEqual(['apiVersion', 'kind']);
  });

  it('a document that is not a mapping is an error', async () => {
    expect(bySeverity(await validate('- a\n- b\n'), 'error')).toHaveLength(1);
  });
});

describe('unknown fields (warning) and names', () => {
  it('unknown fields at any depth are warnings that keep the manifest valid', async () => {
    const response = await validate(deployment({ ...GOOD_CONTAINER, imagePullSecret: 'x' }));
    expect(response.valid).toBe(true);
    expect(response.results).toEqual([
      {
        severity: 'warning',
        message: 'unknown field "imagePullSecret"',
        path: `${C}.imagePullSecret`,
        resource: 'Deployment/web',
      },
    ]);
  });

  it('a missing metadata.name is a warning unless generateName is set or the kind is never stored', async () => {
    const cm = (metadata: unknown): string => stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata });
    expect(bySeverity(await validate(cm({ labels: { a: 'b' } })), 'warning')).toEqual([
      expect.objectContaining({ path: 'metadata.name', resource: 'ConfigMap/<unnamed>' }),
    ]);
    expect((await validate(cm({ generateName: 'c-' }))).results).toEqual([]);
    const review = stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 't' } });
    expect((await validate(review)).results).toEqual([]);
  });

  it('null values are dropped as the API server does', async () => {
    expect((await validate(deployment({ ...GOOD_CONTAINER, args: null, command: null }))).results).toEqual([]);
  });
});

describe('best practices (info)', () => {
  it.each([
    ['nginx', 'has no tag'],
    ['nginx:latest', 'uses the "latest" tag'],
    ['registry.local:5000/team/nginx', 'has no tag'],
  ])('image %s', async (image, message) => {
    const response = await validate(deployment({ ...GOOD_CONTAINER, image }));
    expect(response.valid).toBe(true);
    expect(response.results).toEqual([
      expect.objectContaining({ severity: 'info', path: `${C}.image`, message: expect.stringContaining(message) }),
    ]);
  });

  it('a digest or a version tag is pinned', async () => {
    for (const image of ['nginx@sha256:0f8e6b4b6f5a', 'registry.local:5000/nginx:1.27']) {
      expect((await validate(deployment({ ...GOOD_CONTAINER, image }))).results).toEqual([]);
    }
  });

  it('missing requests, limits and probes', async () => {
    const response = await validate(deployment({}));
    expect(bySeverity(response, 'info').map((r) => r.path)).toEqual([
      `${C}.resources.requests`,
      `${C}.resources.limits`,
      `${C}.livenessProbe`,
      `${C}.readinessProbe`,
    ]);
  });

  it('Jobs are not asked for probes, CronJobs are found at their nested pod spec', async () => {
    const cron = stringify({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: {
        schedule: '* * * * *',
        jobTemplate: {
          spec: {
            template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:latest' }] } },
          },
        },
      },
    });
    const paths = bySeverity(await validate(cron), 'info').map((r) => r.path);
    const at = 'spec.jobTemplate.spec.template.spec.containers[0]';
    expect(paths).toEqual([`${at}.image`, `${at}.resources.requests`, `${at}.resources.limits`]);
  });

  it('can be switched off', async () => {
    const e = await engine();
    expect(e.validate(deployment({}), '1.29', { bestPractices: false }).results).toEqual([]);
  });
});
