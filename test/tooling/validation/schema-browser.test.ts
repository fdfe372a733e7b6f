import type { SchemaField } from '../../../src/validation';
import { engine } from './corpus';

function field(fields: SchemaField[] | undefined, path: string): SchemaField | undefined {
  let current: SchemaField | undefined;
  let list = fields;
  for (const name of path.split('.')) {
    current = list?.find((f) => f.name === name);
    list = current?.fields;
  }
  return current;
}

describe('resource list', () => {
  it('lists kinds with their full apiVersion, description and browser id', async () => {
    const list = (await engine()).listResources('1.29');
    expect(list).toContainEqual(
      expect.objectContaining({
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        gvk: 'apps.v1.Deployment',
        namespaced: true,
        custom: false,
      }),
    );
    expect(list).toContainEqual(expect.objectContaining({ kind: 'Pod', apiVersion: 'v1', gvk: 'core.v1.Pod' }));
    expect(list).toContainEqual(expect.objectContaining({ kind: 'Namespace', apiVersion: 'v1', namespaced: false }));
    expect(list.find((r) => r.kind === 'Ingress' && r.apiVersion === 'networking.k8s.io/v1')?.description).toMatch(
      /^Ingress is a collection of rules/,
    );
    expect(list.filter((r) => r.kind.endsWith('List'))).toEqual([]);
    expect(list.filter((r) => r.kind === 'DeleteOptions' || r.kind === 'WatchEvent')).toEqual([]);
  });

  it('follows the release: flowcontrol v1 appears in 1.29, v1beta2 is gone', async () => {
    const e = await engine();
    const flow = (v: string): string[] =>
      e
        .listResources(v)
        .filter((r) => r.kind === 'FlowSchema')
        .map((r) => r.apiVersion);
    expect(flow('1.28')).toEqual(['flowcontrol.apiserver.k8s.io/v1beta2', 'flowcontrol.apiserver.k8s.io/v1beta3']);
    expect(flow('1.29')).toEqual(['flowcontrol.apiserver.k8s.io/v1', 'flowcontrol.apiserver.k8s.io/v1beta3']);
    expect(flow('1.32')).toEqual(['flowcontrol.apiserver.k8s.io/v1']);
  });
});

describe('schema tree', () => {
  it.each(['core.v1.Pod', 'apps.v1.Deployment', 'networking.k8s.io.v1.Ingress'])('%s', async (gvk) => {
    const tree = (await engine()).getSchemaTree(gvk, '1.29');
    expect(tree?.gvk).toBe(gvk);
    expect(tree?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'spec']));
  });

  it('carries required markers, types, enums, defaults, maps and nested fields', async () => {
    const tree = (await engine()).getSchemaTree('apps.v1.Deployment', '1.29');
    const containers = field(tree?.fields, 'spec.template.spec.containers');
    expect(containers).toMatchObject({ type: 'array', itemType: 'object', required: true });
    expect(field(tree?.fields, 'spec.template.spec.containers.image')).toMatchObject({
      type: 'string',
      required: true,
    });
    expect(field(tree?.fields, 'spec.template.spec.containers.imagePullPolicy')).toMatchObject({
      enum: ['', 'Always', 'IfNotPresent', 'Never'],
    });
    expect(field(tree?.fields, 'spec.template.spec.containers.ports.protocol')).toMatchObject({
      default: 'TCP',
      enum: ['', 'TCP', 'UDP', 'SCTP'],
    });
    expect(field(tree?.fields, 'spec.replicas')).toMatchObject({ type: 'integer', format: 'int32', required: false });
    expect(field(tree?.fields, 'spec.selector')).toMatchObject({ type: 'object', required: true });
    expect(field(tree?.fields, 'metadata.labels')).toMatchObject({ type: 'map', itemType: 'string' });
    expect(field(tree?.fields, 'spec.template.spec.containers.resources.limits')).toMatchObject({
      type: 'map',
      itemType: 'string',
    });
    expect(field(tree?.fields, 'spec.strategy.rollingUpdate.maxSurge')).toMatchObject({
      type: 'string',
      format: 'int-or-string',
    });
    expect(field(tree?.fields, 'spec.paused')).toMatchObject({ type: 'boolean' });
    expect(field(tree?.fields, 'spec.template.spec.containers.name')?.description).toMatch(/DNS_LABEL/);
  });

  it('stops at recursive definitions instead of looping (CRD JSONSchemaProps)', async () => {
    const tree = (await engine()).getSchemaTree('apiextensions.k8s.io.v1.CustomResourceDefinition', '1.29');
    const schema = field(tree?.fields, 'spec.versions.schema.openAPIV3Schema');
    expect(field(schema?.fields, 'properties')).toMatchObject({ type: 'map', recursive: true });
  });

  it.each([
    ['apps.v1.Nope', '1.29'],
    ['extensions.v1beta1.Deployment', '1.29'],
    ['flowcontrol.apiserver.k8s.io.v1.FlowSchema', '1.28'],
    ['Pod', '1.29'],
    ['v1.Pod', '1.29'],
  ])('%s in %s is unknown: null', async (gvk, version) => {
    expect((await engine()).getSchemaTree(gvk, version)).toBeNull();
  });
});

describe('deprecations list', () => {
  it('holds what is deprecated or removed as of the version, with the spec fields', async () => {
    const e = await engine();
    const list = e.listDeprecations('1.29');
    expect(list.version).toBe('1.29');
    expect(list.deprecations).toContainEqual({
      kind: 'Deployment',
      deprecatedApiVersion: 'extensions/v1beta1',
      replacementApiVersion: 'apps/v1',
      removedInVersion: '1.16',
      message: expect.stringContaining('removed in Kubernetes 1.16'),
    });
    expect(list.deprecations).toContainEqual(
      expect.objectContaining({
        kind: 'FlowSchema',
        deprecatedApiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
        replacementApiVersion: 'flowcontrol.apiserver.k8s.io/v1',
        removedInVersion: '1.32',
      }),
    );
    const in128 = e.listDeprecations('1.28').deprecations.map((d) => `${d.deprecatedApiVersion} ${d.kind}`);
    expect(in128).not.toContain('flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema');
  });

  it('PodSecurityPolicy has no replacement, and says so', async () => {
    const psp = (await engine())
      .listDeprecations('1.25')
      .deprecations.find((d) => d.deprecatedApiVersion === 'policy/v1beta1' && d.kind === 'PodSecurityPolicy');
    expect(psp).toMatchObject({ replacementApiVersion: '', removedInVersion: '1.25' });
    expect(psp?.message).toMatch(/no replacement API/);
  });

  it('grows with the version', async () => {
    const e = await engine();
    const counts = ['1.25', '1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32'].map(
      (v) => e.listDeprecations(v).deprecations.length,
    );
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
    expect(counts[0]).toBeLessThan(counts[7] ?? 0);
  });
});
