import { manifestsOf } from '../../../src/catalog/catalog-files';

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\n';

describe("a kustomization's references beside its resources", () => {
  it('accepts bases and components that are directories of the base, patches that are its files and hit a resource', () => {
    const files = {
      'kustomization.yaml': `resources: [d.yaml]
bases: [./common]
components: [extras/]
patchesStrategicMerge: [p.yaml, "apiVersion: v1\\nkind: X\\n"]
patches:
  - path: p.yaml
  - patch: "[]"
    target: { kind: Deployment, name: web }
patchesJson6902:
  - path: j.yaml
    target: { kind: Deployment }
`,
      'd.yaml': DEPLOYMENT,
      'common/kustomization.yaml': 'resources: []\n',
      'extras/Kustomization': 'kind: Component\n',
      'p.yaml': '',
      'j.yaml': '[]',
    };
    expect(manifestsOf('kustomize-base', files).problems).toEqual([]);
  });

  it('names every reference outside the base', () => {
    const files = {
      'kustomization.yaml': `resources: [d.yaml]
bases: [../shared, "github.com/x/y", d.yaml]
components: [missing]
patchesStrategicMerge: [gone.yaml]
patches:
  - path: nowhere.yaml
  - patch: "[]"
    target: { kind: StatefulSet }
  - {}
`,
      'd.yaml': DEPLOYMENT,
    };
    expect(manifestsOf('kustomize-base', files).problems.map((p) => p.message)).toEqual([
      'bases: "../shared" is not a directory of the base holding a kustomization',
      'bases: "github.com/x/y" is not a directory of the base holding a kustomization',
      'bases: "d.yaml" is not a directory of the base holding a kustomization',
      'components: "missing" is not a directory of the base holding a kustomization',
      'patchesStrategicMerge: "gone.yaml" is not a file of the base',
      'patches: "nowhere.yaml" is not a file of the base',
      'patches target: {"kind":"StatefulSet"} selects no resource of the base',
      'patches: {} needs a path or an inline patch',
    ]);
  });
});
