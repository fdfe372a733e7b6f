/** API-server rules for pod templates (core ValidatePodSpec) and the workloads that carry them (apps, batch). */
import { container, deployment, DNS1123_LABEL, errorsOf, pod, type Doc } from './api-server-rules';

const C = 'spec.containers';
const T = 'spec.template.spec.containers';

describe('container names', () => {
  it('are DNS labels', async () => {
    expect(await errorsOf(pod({ containers: [container({ name: 'web-1' })] }))).toEqual([]);
    expect(await errorsOf(pod({ containers: [container({ name: 'Web' })] }))).toEqual([
      { path: `${C}[0].name`, message: `invalid value "Web": ${DNS1123_LABEL}` },
    ]);
  });

  it('are unique across containers and initContainers', async () => {
    const spec = { initContainers: [container({ name: 'setup' })], containers: [container({ name: 'web' })] };
    expect(await errorsOf(pod(spec))).toEqual([]);
    const clash = { initContainers: [container({ name: 'web' })], containers: [container({ name: 'web' })] };
    expect(await errorsOf(pod(clash))).toEqual([
      { path: `${C}[0].name`, message: 'duplicate value "web": container names must be unique across all containers' },
    ]);
  });
});

describe('container ports', () => {
  it('numbers are between 1 and 65535', async () => {
    expect(await errorsOf(pod({ containers: [container({ ports: [{ containerPort: 65535 }] })] }))).toEqual([]);
    expect(await errorsOf(pod({ containers: [container({ ports: [{ containerPort: 70000 }] })] }))).toEqual([
      {
        path: `${C}[0].ports[0].containerPort`,
        message: 'invalid value 70000: must be between 1 and 65535, inclusive',
      },
    ]);
    expect(await errorsOf(pod({ containers: [container({ ports: [{ containerPort: 80, hostPort: -1 }] })] }))).toEqual([
      { path: `${C}[0].ports[0].hostPort`, message: 'invalid value -1: must be between 1 and 65535, inclusive' },
    ]);
  });

  it('names are IANA service names', async () => {
    expect(
      await errorsOf(pod({ containers: [container({ ports: [{ containerPort: 80, name: 'http-alt' }] })] })),
    ).toEqual([]);
    const errors = await errorsOf(pod({ containers: [container({ ports: [{ containerPort: 80, name: '8080' }] })] }));
    expect(errors).toEqual([
      { path: `${C}[0].ports[0].name`, message: 'invalid value "8080": must contain at least one letter (a-z)' },
    ]);
    const long = await errorsOf(
      pod({ containers: [container({ ports: [{ containerPort: 80, name: 'metrics--exporter-port' }] })] }),
    );
    expect(long).toEqual([
      {
        path: `${C}[0].ports[0].name`,
        message: 'invalid value "metrics--exporter-port": must be no more than 15 characters',
      },
      {
        path: `${C}[0].ports[0].name`,
        message: 'invalid value "metrics--exporter-port": must not contain consecutive hyphens',
      },
    ]);
  });

  it('names are unique within a container (not across containers)', async () => {
    const two = [
      container({ name: 'a', ports: [{ containerPort: 80, name: 'http' }] }),
      container({ name: 'b', ports: [{ containerPort: 81, name: 'http' }] }),
    ];
    expect(await errorsOf(pod({ containers: two }))).toEqual([]);
    const ports = [
      { containerPort: 80, name: 'http' },
      { containerPort: 81, name: 'http' },
    ];
    expect(await errorsOf(pod({ containers: [container({ ports })] }))).toEqual([
      {
        path: `${C}[0].ports[1].name`,
        message: 'duplicate value "http": port names must be unique within a container',
      },
    ]);
  });
});

describe('environment variable names', () => {
  const withEnv = (name: string): Doc => pod({ containers: [container({ env: [{ name, value: 'x' }] })] });
  const STRICT =
    "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

  it('up to 1.31: letters, digits, _ - . and no leading digit', async () => {
    expect(await errorsOf(withEnv('MY_VAR.name-1'), '1.31')).toEqual([]);
    expect(await errorsOf(withEnv('1VAR'), '1.25')).toEqual([
      { path: `${C}[0].env[0].name`, message: `invalid value "1VAR": ${STRICT}` },
    ]);
    expect(await errorsOf(withEnv('..VAR'), '1.31')).toEqual([
      { path: `${C}[0].env[0].name`, message: `invalid value "..VAR": must not start with '..'` },
    ]);
  });

  it('from 1.32 (RelaxedEnvironmentVariableValidation): any printable ASCII but =', async () => {
    expect(await errorsOf(withEnv('1VAR:x'), '1.32')).toEqual([]);
    expect(await errorsOf(withEnv('A=B'), '1.32')).toEqual([
      {
        path: `${C}[0].env[0].name`,
        message: `invalid value "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      },
    ]);
  });
});

describe('resources', () => {
  const withResources = (resources: Doc): Doc => pod({ containers: [container({ resources })] });

  it('requests are at most the limits, comparing values not spellings', async () => {
    expect(
      await errorsOf(
        withResources({ requests: { cpu: '1100m', memory: '1Gi' }, limits: { cpu: '1.1', memory: '1073741824' } }),
      ),
    ).toEqual([]);
    expect(
      await errorsOf(
        withResources({ requests: { cpu: '2', memory: '512Mi' }, limits: { cpu: '500m', memory: '1Gi' } }),
      ),
    ).toEqual([
      {
        path: `${C}[0].resources.requests.cpu`,
        message: 'invalid value "2": must be less than or equal to cpu limit of 500m',
      },
    ]);
  });

  it('quantities are not negative', async () => {
    expect(await errorsOf(withResources({ requests: { memory: '-1Mi' } }))).toEqual([
      {
        path: `${C}[0].resources.requests.memory`,
        message: 'invalid value "-1Mi": must be greater than or equal to 0',
      },
    ]);
  });

  it('a quantity that does not parse is the schema check error, once', async () => {
    const errors = await errorsOf(withResources({ limits: { cpu: 'lots' } }));
    expect(errors).toEqual([
      { path: `${C}[0].resources.limits.cpu`, message: expect.stringContaining('invalid quantity value "lots"') },
    ]);
  });
});

describe('workload selectors and counts', () => {
  it('the selector must select the template labels', async () => {
    expect(await errorsOf(deployment())).toEqual([]);
    expect(await errorsOf(deployment({ labels: { app: 'api' } }))).toEqual([
      {
        path: 'spec.template.metadata.labels',
        message: 'invalid value {"app":"api"}: `selector` does not match template `labels`',
      },
    ]);
  });

  it('matchExpressions count, and are well-formed', async () => {
    const selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] };
    expect(await errorsOf(deployment({ spec: { selector } }))).toEqual([]);
    const notIn = { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] };
    expect((await errorsOf(deployment({ spec: { selector: notIn } }))).map((e) => e.path)).toEqual([
      'spec.template.metadata.labels',
    ]);
    const noValues = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] };
    expect(await errorsOf(deployment({ spec: { selector: noValues } }))).toEqual([
      {
        path: 'spec.selector.matchExpressions[0].values',
        message: "required value: must be specified when `operator` is 'In' or 'NotIn'",
      },
      {
        path: 'spec.template.metadata.labels',
        message: 'invalid value {"app":"web"}: `selector` does not match template `labels`',
      },
    ]);
  });

  it('an empty selector is refused', async () => {
    expect(await errorsOf(deployment({ spec: { selector: {} } }))).toEqual([
      { path: 'spec.selector', message: 'invalid value {}: empty selector is invalid for deployment' },
    ]);
  });

  it('replicas are not negative', async () => {
    expect(await errorsOf(deployment({ spec: { replicas: 0 } }))).toEqual([]);
    expect(await errorsOf(deployment({ spec: { replicas: -1 } }))).toEqual([
      { path: 'spec.replicas', message: 'invalid value -1: must be greater than or equal to 0' },
    ]);
  });

  it('a rolling update cannot have both maxSurge and maxUnavailable at 0', async () => {
    const strategy = (maxSurge: unknown, maxUnavailable: unknown): Doc =>
      deployment({ spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } } });
    expect(await errorsOf(strategy(1, 0))).toEqual([]);
    expect(await errorsOf(strategy(0, '0%'))).toEqual([
      {
        path: 'spec.strategy.rollingUpdate.maxUnavailable',
        message: 'invalid value "0%": may not be 0 when `maxSurge` is 0',
      },
    ]);
    expect(await errorsOf(strategy('150%', '120%'))).toEqual([
      {
        path: 'spec.strategy.rollingUpdate.maxUnavailable',
        message: 'invalid value "120%": must not be greater than 100%',
      },
    ]);
  });

  it('template labels follow the label rules', async () => {
    expect(await errorsOf(deployment({ labels: { app: 'web', 'bad key': 'x' } }))).toEqual([
      {
        path: 'spec.template.metadata.labels["bad key"]',
        message: expect.stringContaining('invalid value "bad key": name part must consist of'),
      },
    ]);
  });

  it('a Deployment pod restarts Always; a Job pod OnFailure or Never (Always is the default)', async () => {
    expect(await errorsOf(deployment({ podSpec: { restartPolicy: 'Never' } }))).toEqual([
      { path: 'spec.template.spec.restartPolicy', message: 'unsupported value "Never": supported values: "Always"' },
    ]);
    const job = (podSpec: Doc): Doc => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate' },
      spec: { template: { spec: { containers: [container()], ...podSpec } } },
    });
    expect(await errorsOf(job({ restartPolicy: 'Never' }))).toEqual([]);
    expect(await errorsOf(job({}))).toEqual([
      {
        path: 'spec.template.spec.restartPolicy',
        message: 'unsupported value "Always" (the default when none is set): supported values: "OnFailure", "Never"',
      },
    ]);
  });

  it('every pod-bearing kind gets the container rules at its own template path', async () => {
    const bad = { containers: [container({ name: 'Bad' })] };
    const daemonSet: Doc = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: bad } },
    };
    const cronJob: Doc = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly' },
      spec: {
        schedule: '0 0 * * *',
        jobTemplate: { spec: { template: { spec: { ...bad, restartPolicy: 'Never' } } } },
      },
    };
    expect((await errorsOf(daemonSet)).map((e) => e.path)).toEqual([`${T}[0].name`]);
    expect((await errorsOf(cronJob)).map((e) => e.path)).toEqual([
      'spec.jobTemplate.spec.template.spec.containers[0].name',
    ]);
  });
});
