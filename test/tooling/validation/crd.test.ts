import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { checkCrd, InvalidCrd, type CrdRecord } from '../../../src/validation';
import { bySeverity, CORPUS, corpusFile, engine } from './corpus';

const F = 'kubeconform/fixtures/';
const SAGEMAKER = F + 'registry/sagemaker.aws.amazon.com_trainingjobs.yaml';

/** A v1 CRD around an openAPIV3Schema, as a YAML string. */
function crdYaml(schema: unknown, overrides: Record<string, unknown> = {}): string {
  return stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
      ...overrides,
    },
  });
}

const WIDGET_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1 },
        color: { type: 'string', enum: ['red', 'blue'] },
        port: { 'x-kubernetes-int-or-string': true },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

describe('the sagemaker CRD of the corpus', () => {
  let crd: CrdRecord;
  beforeAll(() => {
    crd = checkCrd(corpusFile(SAGEMAKER));
  });

  it('is checked into a serialisable record (converted from v1beta1)', () => {
    expect(crd).toMatchObject({
      name: 'trainingjobs.sagemaker.aws.amazon.com',
      group: 'sagemaker.aws.amazon.com',
      kind: 'TrainingJob',
      plural: 'trainingjobs',
      scope: 'Namespaced',
      convertedFrom: 'apiextensions.k8s.io/v1beta1',
    });
    expect(crd.versions.map((v) => v.name)).toEqual(['v1']);
    expect(JSON.parse(JSON.stringify(crd))).toEqual(crd);
  });

  it('makes test_crd.yaml valid once supplied (as the caller would, from JSON storage)', async () => {
    const stored = JSON.parse(JSON.stringify(crd)) as CrdRecord;
    const response = (await engine()).validate(corpusFile(F + 'test_crd.yaml'), '1.29', { crds: [stored] });
    expect(response).toEqual({ valid: true, results: [], summary: { errors: 0, warnings: 0, info: 0 } });
  });

  it('then reports errors against its schema: enum, minimum, required', async () => {
    const broken = corpusFile(F + 'test_crd.yaml')
      .replace('trainingInputMode: File', 'trainingInputMode: Stream')
      .replace('volumeSizeInGB: 5', 'volumeSizeInGB: 0')
      .replace(/ {2}region: us-west-2\n/, '');
    const response = (await engine()).validate(broken, '1.29', { crds: [crd] });
    const errors = bySeverity(response, 'error').map((e) => e.path);
    expect(errors).toEqual(
      expect.arrayContaining([
        'spec.algorithmSpecification.trainingInputMode',
        'spec.resourceConfig.volumeSizeInGB',
        'spec.region',
      ]),
    );
    expect(errors).toHaveLength(3);
  });

  it('appears in the resource list and schema browser of the caller only', async () => {
    const e = await engine();
    const entry = {
      kind: 'TrainingJob',
      apiVersion: 'sagemaker.aws.amazon.com/v1',
      gvk: 'sagemaker.aws.amazon.com.v1.TrainingJob',
      namespaced: true,
      custom: true,
    };
    expect(e.listResources('1.29', [crd])).toContainEqual(expect.objectContaining(entry));
    expect(e.listResources('1.29')).not.toContainEqual(expect.objectContaining({ kind: 'TrainingJob' }));
    const tree = e.getSchemaTree('sagemaker.aws.amazon.com.v1.TrainingJob', '1.29', [crd]);
    const spec = tree?.fields.find((f) => f.name === 'spec');
    expect(spec?.fields?.find((f) => f.name === 'roleArn')).toMatchObject({ type: 'string', required: true });
    expect(e.getSchemaTree('sagemaker.aws.amazon.com.v1.TrainingJob', '1.29')).toBeNull();
  });
});

describe('other CRDs of the corpus', () => {
  it('the prometheus-operator CRD is accepted and validates a Prometheus resource', async () => {
    const crd = checkCrd(
      corpusFile('kubeconform/scripts/fixtures/prometheus-operator-0prometheusCustomResourceDefinition.yaml'),
    );
    expect(crd.kind).toBe('Prometheus');
    const manifest = stringify({
      apiVersion: `${crd.group}/v1`,
      kind: 'Prometheus',
      metadata: { name: 'main' },
      spec: { replicas: 'two', serviceAccountName: 'prometheus' },
    });
    const response = (await engine()).validate(manifest, '1.29', { crds: [crd] });
    expect(bySeverity(response, 'error')).toEqual([expect.objectContaining({ path: 'spec.replicas' })]);
  });

  it('the grafana alert rule group schema accepts Go durations such as 1m and 5m0s (kubeconform PR #309)', async () => {
    const schema: unknown = JSON.parse(
      fs.readFileSync(path.join(CORPUS, F, 'grafanaalertrulegroup_v1beta1.json'), 'utf8'),
    );
    const crd = checkCrd(
      stringify({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'grafanaalertrulegroups.grafana.integreatly.org' },
        spec: {
          group: 'grafana.integreatly.org',
          names: { kind: 'GrafanaAlertRuleGroup', plural: 'grafanaalertrulegroups' },
          scope: 'Namespaced',
          versions: [{ name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
        },
      }),
    );
    const sample = corpusFile(F + 'grafana-alert-rule-group-sample.yaml');
    const e = await engine();
    expect(e.validate(sample, '1.29', { crds: [crd] })).toMatchObject({
      valid: true,
      summary: { errors: 0, warnings: 0 },
    });
    const bad = e.validate(sample.replace('interval: 5m', 'interval: soon'), '1.29', { crds: [crd] });
    expect(bySeverity(bad, 'error').map((r) => r.path)).toContain('spec.interval');
  });
});

describe('CRD-specific schema features', () => {
  const crd = (): CrdRecord => checkCrd(crdYaml(WIDGET_SCHEMA));
  const widget = (spec: unknown): string =>
    stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

  it('int-or-string, preserved unknown fields, unknown fields, required and enum', async () => {
    const e = await engine();
    const ok = e.validate(widget({ size: 2, color: 'red', port: 'http', extra: { anything: [1, 2] } }), '1.29', {
      crds: [crd()],
    });
    expect(ok.results).toEqual([]);
    const bad = e.validate(widget({ color: 'green', port: 1.5, nope: true }), '1.29', { crds: [crd()] });
    expect(bad.results.map((r) => [r.severity, r.path])).toEqual(
      expect.arrayContaining([
        ['error', 'spec.size'],
        ['error', 'spec.color'],
        ['error', 'spec.port'],
        ['warning', 'spec.nope'],
      ]),
    );
  });

  it('a deprecated CRD version gives a deprecation warning', async () => {
    const record = checkCrd(
      crdYaml(WIDGET_SCHEMA, {
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: WIDGET_SCHEMA } },
          {
            name: 'v1alpha1',
            served: true,
            storage: false,
            deprecated: true,
            deprecationWarning: 'use v1',
            schema: { openAPIV3Schema: WIDGET_SCHEMA },
          },
          { name: 'v0', served: false, storage: false, schema: { openAPIV3Schema: WIDGET_SCHEMA } },
        ],
      }),
    );
    expect(record.versions.map((v) => v.name)).toEqual(['v1', 'v1alpha1']);
    const response = (await engine()).validate(
      widget({ size: 1 }).replace('example.com/v1', 'example.com/v1alpha1'),
      '1.29',
      { crds: [record] },
    );
    expect(response.results).toEqual([
      expect.objectContaining({ severity: 'warning', path: 'apiVersion', message: 'use v1' }),
    ]);
    const unserved = (await engine()).validate(
      widget({ size: 1 }).replace('example.com/v1', 'example.com/v0'),
      '1.29',
      { crds: [record] },
    );
    expect(unserved.valid).toBe(false);
  });
});

describe('checkCrd refuses what the API server refuses', () => {
  it.each([
    [
      'not a CRD',
      stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
      /kind must be CustomResourceDefinition/,
    ],
    ['two documents', `${crdYaml(WIDGET_SCHEMA)}---\n${crdYaml(WIDGET_SCHEMA)}`, /exactly one YAML document/],
    ['a syntax error', 'apiVersion: [', /YAML syntax error/],
    [
      'a wrong name',
      crdYaml(WIDGET_SCHEMA).replace('name: widgets.example.com', 'name: gadgets.example.com'),
      /metadata.name must be "widgets.example.com"/,
    ],
    ['a group without a dot', crdYaml(WIDGET_SCHEMA, { group: 'example' }), /spec.group/],
    ['no scope', crdYaml(WIDGET_SCHEMA, { scope: 'Galaxy' }), /spec.scope/],
    [
      'an upper-case plural',
      crdYaml(WIDGET_SCHEMA, { names: { kind: 'Widget', plural: 'Widgets' } }),
      /spec.names.plural/,
    ],
    ['no versions', crdYaml(WIDGET_SCHEMA, { versions: [] }), /at least one version/],
    [
      'two storage versions',
      crdYaml(WIDGET_SCHEMA, {
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: WIDGET_SCHEMA } },
          { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: WIDGET_SCHEMA } },
        ],
      }),
      /exactly one/,
    ],
    [
      'no schema',
      crdYaml(WIDGET_SCHEMA, { versions: [{ name: 'v1', served: true, storage: true }] }),
      /openAPIV3Schema is required/,
    ],
    ['a root that is not an object', crdYaml({ type: 'string' }), /root schema must be of type object/],
    [
      'a field without a type',
      crdYaml({ type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } }),
      /spec.type: must not be empty/,
    ],
    ['a $ref', crdYaml({ type: 'object', properties: { spec: { $ref: '#/definitions/x' } } }), /\$ref/],
    ['an array without items', crdYaml({ type: 'object', properties: { list: { type: 'array' } } }), /items/],
    [
      'metadata beyond name',
      crdYaml({
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      }),
      /only name and generateName/,
    ],
    [
      'a backreference in a pattern',
      crdYaml({ type: 'object', properties: { s: { type: 'string', pattern: '^(a)\\1$' } } }),
      /openAPIV3Schema\.properties\.s\.pattern: unsupported pattern: backreferences are not supported/,
    ],
    [
      'a lookahead in a nested pattern',
      crdYaml({
        type: 'object',
        properties: { l: { type: 'array', items: { type: 'string', pattern: '^(?!admin)[a-z]+$' } } },
      }),
      /properties\.l\.items\.pattern: unsupported pattern: lookaheads are not supported/,
    ],
    ['preserveUnknownFields', crdYaml(WIDGET_SCHEMA, { preserveUnknownFields: true }), /preserveUnknownFields/],
    [
      'the crd_schema.yaml fixture (v1beta1 with a full metadata schema)',
      corpusFile(F + 'crd_schema.yaml'),
      /only name and generateName/,
    ],
  ])('%s', (_what, yamlText, reason) => {
    expect(() => checkCrd(yamlText)).toThrow(InvalidCrd);
    expect(() => checkCrd(yamlText)).toThrow(reason);
    expect(() => checkCrd(yamlText)).toThrow(/^invalid CRD: /);
  });

  it('accepts a pattern written in Go syntax JavaScript lacks, and applies it when validating', async () => {
    const record = checkCrd(
      crdYaml({
        type: 'object',
        properties: { spec: { type: 'object', properties: { s: { type: 'string', pattern: '(?i)^abc$' } } } },
      }),
    );
    const manifest = stringify({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { s: 'ABC' },
    });
    expect((await engine()).validate(manifest, '1.29', { crds: [record] }).valid).toBe(true);
    const wrong = manifest.replace('s: ABC', 's: XYZ');
    expect((await engine()).validate(wrong, '1.29', { crds: [record] }).valid).toBe(false);
  });
});
