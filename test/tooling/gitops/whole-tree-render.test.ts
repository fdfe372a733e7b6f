/**
 * renderAll keeps the last whole tree it rendered, by its model's fingerprint (issue 46): a generate renders the same
 * model to validate it and again in the commit path. The tree it answers must be what a render of that model gives,
 * never an earlier model's, and a caller's change to it must not reach the next caller.
 */
import { treeDigests } from '../../../src/delivery-layout/render-digest';
import { renderAll, type DeliveryModel } from '../../../src/gitops/manifests';
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { FILE_YAML } from '../../../src/parse/file-yaml';
import { ACCEPTANCE, deliveryModel, SPEC } from './delivery-models';

const DEPLOYMENT = 'tenants/acme/dev/api/deployment.yaml';
const APPLICATION = 'applications/acme/dev/api.yaml';

function withTag(model: DeliveryModel, tag: string): DeliveryModel {
  return { ...model, workloads: [{ name: 'api', spec: { ...SPEC, image: { ...SPEC.image, tag } }, overrides: {} }] };
}

describe('renderAll of a whole tree', () => {
  it('answers an equal tree for an equal model, each caller its own copy with the objects', () => {
    const first = renderAll(deliveryModel(ACCEPTANCE));
    first.set(DEPLOYMENT, 'changed by the first caller\n');
    first.delete(APPLICATION);
    const second = renderAll(deliveryModel(ACCEPTANCE));
    expect(second).not.toBe(first);
    expect(second.get(DEPLOYMENT)).toContain('image: registry.example.com/shop/api:1.0.0');
    expect(second.has(APPLICATION)).toBe(true);
    expect(second.objects.has(DEPLOYMENT)).toBe(true);
    expect(first.objects.has(DEPLOYMENT)).toBe(false);
  });

  it("renders a changed model anew: a workload's tag, a destination in a Map", () => {
    const model = deliveryModel(ACCEPTANCE);
    expect(renderAll(model).get(DEPLOYMENT)).toContain(':1.0.0');
    expect(renderAll(withTag(model, '2.0.0')).get(DEPLOYMENT)).toContain(':2.0.0');
    const moved = deliveryModel({
      ...ACCEPTANCE,
      bindings: [{ cluster: 'eu-dev', tenants: [], environments: ['dev'] }],
    });
    expect(renderAll(moved).get(APPLICATION)).not.toBe(renderAll(model).get(APPLICATION));
    expect(renderAll(model).get(DEPLOYMENT)).toContain(':1.0.0');
  });

  it('renders a filtered tree without the whole one', () => {
    const model = withTag(deliveryModel(ACCEPTANCE), '3.0.0');
    const one = renderAll(model, (t) => t.tenant === 'acme' && t.environment === 'dev');
    expect(one.get(DEPLOYMENT)).toContain(':3.0.0');
    expect([...one.keys()].filter((path) => path.startsWith('tenants/'))).toEqual([
      'tenants/acme/dev/api/deployment.yaml',
      'tenants/acme/dev/api/service.yaml',
      'tenants/acme/dev/api/configmap.yaml',
      'tenants/acme/dev/api/kustomization.yaml',
    ]);
  });
});

it("writes every generated file as js-yaml's dump with the same options does (issue 46: the files' bytes stay)", () => {
  const rendered = renderAll(deliveryModel(ACCEPTANCE));
  expect(rendered.objects.size).toBeGreaterThan(0);
  const yamlFiles = [...rendered].filter(([path]) => path.endsWith('.yaml'));
  expect(yamlFiles.length).toBeGreaterThan(rendered.objects.size);
  for (const [path, text] of yamlFiles) {
    const value = rendered.objects.get(path) ?? load(text, { schema: CORE_SCHEMA });
    expect({ path, text: dump(value, FILE_YAML) }).toEqual({ path, text });
  }
});

it("answers a tree's digest once computed, and anew once the tree or a copy of it changes", () => {
  const tree = renderAll(deliveryModel(ACCEPTANCE));
  const digest = treeDigests(tree).digest;
  expect(tree.digest()).toBe(digest);
  const copy = tree.copy();
  expect(copy.digest()).toBe(digest);
  copy.set(DEPLOYMENT, 'changed\n');
  expect(copy.digest()).toBe(treeDigests(copy).digest);
  expect(copy.digest()).not.toBe(digest);
  expect(tree.digest()).toBe(digest);
  copy.delete(DEPLOYMENT);
  expect(copy.digest()).toBe(treeDigests(copy).digest);
  copy.clear();
  expect(copy.digest()).toBe(treeDigests(new Map()).digest);
  expect(copy.objects.size).toBe(0);
});
