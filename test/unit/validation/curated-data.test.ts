/** The committed data under schemas/k8s: constraints that all apply, deprecations that agree with the schemas. */
import path from 'node:path';
import { repoRoot } from '../../../src/paths';
import { SUPPORTED_K8S_VERSIONS } from '../../../src/validation';
import { Deprecations } from '../../../src/validation/deprecations';
import { loadBundle } from '../../../src/validation/registry/bundle-loader';
import { applyConstraints, loadConstraints } from '../../../src/validation/registry/constraints';
import { apiVersionOf } from '../../../src/validation/registry/version-schemas';

const DIR = path.join(repoRoot(), 'schemas', 'k8s');
const served = new Map(
  SUPPORTED_K8S_VERSIONS.map((v) => [
    v,
    new Set(loadBundle(DIR, v).resources.map((r) => `${apiVersionOf(r.group, r.version)} ${r.kind}`)),
  ]),
);
const everServed = new Set([...served.values()].flatMap((s) => [...s].map((k) => k.split(' ')[0])));
const deprecations = Deprecations.load(DIR);
const minor = (v: string): number => Number(v.split('.')[1]);

describe('constraints.yaml', () => {
  const { constraints, nameNotRequired } = loadConstraints(DIR);

  it.each(SUPPORTED_K8S_VERSIONS)('every entry applies to a definition and property of %s', (version) => {
    expect(applyConstraints(loadBundle(DIR, version).definitions, constraints)).toEqual([]);
  });

  it('covers at least the fields the issue names', () => {
    const has = (definition: string, property: string): boolean =>
      constraints.some((c) => c.definition.endsWith(definition) && c.property === property);
    for (const [d, p] of [
      ['core.v1.Container', 'image'],
      ['core.v1.Container', 'name'],
      ['core.v1.ContainerPort', 'protocol'],
      ['core.v1.Container', 'imagePullPolicy'],
      ['core.v1.PodSpec', 'restartPolicy'],
      ['core.v1.ServiceSpec', 'type'],
      ['core.v1.PodSpec', 'dnsPolicy'],
      ['core.v1.Container', 'terminationMessagePolicy'],
    ]) {
      expect([d, p, has(d ?? '', p ?? '')]).toEqual([d, p, true]);
    }
  });

  it('names only kinds that exist as exempt from metadata.name', () => {
    const kinds = new Set([...served.values()].flatMap((s) => [...s].map((k) => k.split(' ')[1])));
    expect([...nameNotRequired].filter((k) => !kinds.has(k))).toEqual([]);
  });
});

describe('deprecations.yaml', () => {
  it('lists each API once, Kubernetes kinds only, no List kinds', () => {
    const keys = deprecations.records.map((r) => `${r.apiVersion} ${r.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(
      deprecations.records.filter((r) => r.kind.endsWith('List') || /cert-manager|istio/.test(r.apiVersion)),
    ).toEqual([]);
  });

  it('fixes the errors ERRATA.md lists', () => {
    expect(deprecations.records.filter((r) => r.kind === 'FlowControl')).toEqual([]);
    const flow = (version: string, kind: string): unknown =>
      deprecations.find(`flowcontrol.apiserver.k8s.io/${version}`, kind);
    for (const kind of ['FlowSchema', 'PriorityLevelConfiguration']) {
      expect(flow('v1beta1', kind)).toMatchObject({ deprecatedIn: '1.23', removedIn: '1.26' });
      expect(flow('v1beta2', kind)).toMatchObject({ deprecatedIn: '1.26', removedIn: '1.29' });
      expect(flow('v1beta3', kind)).toMatchObject({ deprecatedIn: '1.29', removedIn: '1.32' });
    }
    const psp = deprecations.find('policy/v1beta1', 'PodSecurityPolicy');
    expect(psp?.replacement).toBeUndefined();
    expect(psp?.note).toMatch(/no replacement API/);
  });

  it('deprecates before it removes', () => {
    for (const r of deprecations.records) {
      if (r.removedIn)
        expect([r.apiVersion, r.kind, minor(r.deprecatedIn) < minor(r.removedIn)]).toEqual([
          r.apiVersion,
          r.kind,
          true,
        ]);
    }
  });

  it.each(SUPPORTED_K8S_VERSIONS)('agrees with what %s serves', (version) => {
    const disagreements: string[] = [];
    for (const r of deprecations.records) {
      const isServed = served.get(version)?.has(`${r.apiVersion} ${r.kind}`) ?? false;
      const removed = r.removedIn !== undefined && minor(r.removedIn) <= minor(version);
      if (removed && isServed) disagreements.push(`${r.apiVersion} ${r.kind} removed in ${r.removedIn} but served`);
      const restApi = everServed.has(r.apiVersion);
      if (!removed && minor(r.deprecatedIn) <= minor(version) && restApi && !isServed) {
        disagreements.push(`${r.apiVersion} ${r.kind} deprecated in ${r.deprecatedIn}, not removed, yet not served`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
