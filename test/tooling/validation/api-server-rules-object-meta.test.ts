/** API-server rules for ObjectMeta (apimachinery ValidateObjectMetaAccessor), every kind. */
import { DNS1035_LABEL, DNS1123_LABEL, DNS1123_SUBDOMAIN, errorsOf, type Doc } from './api-server-rules';

function configMap(metadata: Doc): Doc {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { a: 'b' } };
}

describe('metadata.name', () => {
  it('a DNS-1123 subdomain for most kinds', async () => {
    expect(await errorsOf(configMap({ name: 'app.config-1' }))).toEqual([]);
    expect(await errorsOf(configMap({ name: 'App_Config' }))).toEqual([
      { path: 'metadata.name', message: `invalid value "App_Config": ${DNS1123_SUBDOMAIN}` },
    ]);
  });

  it('at most 253 characters', async () => {
    const name = 'a'.repeat(254);
    expect(await errorsOf(configMap({ name: 'a'.repeat(253) }))).toEqual([]);
    expect(await errorsOf(configMap({ name }))).toEqual([
      { path: 'metadata.name', message: `invalid value "${'a'.repeat(76)}...: must be no more than 253 characters` },
    ]);
  });

  it('a DNS-1035 label for a Service (starts with a letter)', async () => {
    const service = (name: string): Doc => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name },
      spec: { ports: [{ port: 80 }] },
    });
    expect(await errorsOf(service('web'))).toEqual([]);
    expect(await errorsOf(service('1web'))).toEqual([
      { path: 'metadata.name', message: `invalid value "1web": ${DNS1035_LABEL}` },
    ]);
  });

  it('a DNS-1123 label for a Namespace (no dots)', async () => {
    const namespace = (name: string): Doc => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    expect(await errorsOf(namespace('team-a'))).toEqual([]);
    expect(await errorsOf(namespace('team.a'))).toEqual([
      { path: 'metadata.name', message: 'invalid value "team.a": must not contain dots' },
    ]);
    expect(await errorsOf(namespace('Team'))).toEqual([
      { path: 'metadata.name', message: `invalid value "Team": ${DNS1123_LABEL}` },
    ]);
  });

  it('a path segment for RBAC kinds, where colons are fine', async () => {
    const role = (name: string): Doc => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      rules: [],
    });
    expect(await errorsOf(role('system:controller:web'))).toEqual([]);
    expect(await errorsOf(role('a/b'))).toEqual([
      { path: 'metadata.name', message: `invalid value "a/b": may not contain '/'` },
    ]);
  });

  it('a StatefulSet name is a subdomain up to 1.26 and a label from 1.27 (kubernetes#114172)', async () => {
    const statefulSet: Doc = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db.primary' },
      spec: {
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'pg:16' }] } },
      },
    };
    expect(await errorsOf(statefulSet, '1.26')).toEqual([]);
    expect(await errorsOf(statefulSet, '1.27')).toEqual([
      { path: 'metadata.name', message: 'invalid value "db.primary": must not contain dots' },
    ]);
  });

  it('a CronJob name has at most 52 characters', async () => {
    const cronJob = (name: string): Doc => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name },
      spec: {
        schedule: '* * * * *',
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1' }] } } },
        },
      },
    });
    expect(await errorsOf(cronJob('a'.repeat(52)))).toEqual([]);
    expect(await errorsOf(cronJob('a'.repeat(53)))).toEqual([
      { path: 'metadata.name', message: `invalid value "${'a'.repeat(53)}": must be no more than 52 characters` },
    ]);
  });

  it('generateName is checked as a prefix (a trailing dash is fine)', async () => {
    expect(await errorsOf(configMap({ generateName: 'web-' }))).toEqual([]);
    expect(await errorsOf(configMap({ generateName: 'Web-' }))).toEqual([
      { path: 'metadata.generateName', message: `invalid value "Web-": ${DNS1123_SUBDOMAIN}` },
    ]);
  });

  it('custom resources get the ObjectMeta rules too', async () => {
    // No CRD registered: the kind is unknown, so only the kind error; nothing to check names against.
    const errors = await errorsOf({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'Bad_Name' } });
    expect(errors.map((e) => e.path)).not.toContain('metadata.name');
  });
});

describe('metadata.namespace', () => {
  it('a DNS-1123 label', async () => {
    expect(await errorsOf(configMap({ name: 'a', namespace: 'team-a' }))).toEqual([]);
    expect(await errorsOf(configMap({ name: 'a', namespace: 'team_a' }))).toEqual([
      { path: 'metadata.namespace', message: `invalid value "team_a": ${DNS1123_LABEL}` },
    ]);
  });
});

describe('metadata.labels', () => {
  const QUALIFIED =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const VALUE =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

  it('keys are qualified names with an optional DNS-subdomain prefix', async () => {
    expect(await errorsOf(configMap({ name: 'a', labels: { 'app.kubernetes.io/name': 'web', tier: '' } }))).toEqual([]);
    expect(await errorsOf(configMap({ name: 'a', labels: { '-tier': 'web' } }))).toEqual([
      { path: 'metadata.labels["-tier"]', message: `invalid value "-tier": name part ${QUALIFIED}` },
    ]);
    expect(await errorsOf(configMap({ name: 'a', labels: { 'Example.com/tier': 'web' } }))).toEqual([
      {
        path: 'metadata.labels["Example.com/tier"]',
        message: `invalid value "Example.com/tier": prefix part ${DNS1123_SUBDOMAIN}`,
      },
    ]);
    expect(await errorsOf(configMap({ name: 'a', labels: { 'a/b/c': 'web' } }))).toEqual([
      {
        path: 'metadata.labels["a/b/c"]',
        message: `invalid value "a/b/c": a qualified name ${QUALIFIED} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      },
    ]);
  });

  it('values are at most 63 characters of the label alphabet', async () => {
    expect(await errorsOf(configMap({ name: 'a', labels: { tier: 'a'.repeat(64) } }))).toEqual([
      {
        path: 'metadata.labels.tier',
        message: `invalid value "${'a'.repeat(64)}": must be no more than 63 characters`,
      },
    ]);
    expect(await errorsOf(configMap({ name: 'a', labels: { tier: 'web app' } }))).toEqual([
      { path: 'metadata.labels.tier', message: `invalid value "web app": ${VALUE}` },
    ]);
  });
});

describe('metadata.annotations', () => {
  it('take at most 256 KiB together', async () => {
    const fits = { a: 'x'.repeat(128 * 1024), b: 'x'.repeat(128 * 1024 - 2) };
    expect(await errorsOf(configMap({ name: 'a', annotations: fits }))).toEqual([]);
    const over = { a: 'x'.repeat(128 * 1024), b: 'x'.repeat(128 * 1024) };
    expect(await errorsOf(configMap({ name: 'a', annotations: over }))).toEqual([
      {
        path: 'metadata.annotations',
        message: 'too long: must have at most 262144 bytes (annotations take 262146 bytes)',
      },
    ]);
  });

  it('keys are qualified names (any case)', async () => {
    expect(await errorsOf(configMap({ name: 'a', annotations: { 'Example.com/Note': 'x' } }))).toEqual([]);
    expect(await errorsOf(configMap({ name: 'a', annotations: { 'note!': 'x' } }))).toEqual([
      {
        path: 'metadata.annotations["note!"]',
        message: expect.stringContaining('invalid value "note!": name part must consist of'),
      },
    ]);
  });
});
