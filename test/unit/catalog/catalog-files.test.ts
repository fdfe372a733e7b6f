import {
  CATALOG_MAX_TOTAL_BYTES,
  bundleManifests,
  checkFiles,
  kustomizationProblems,
} from '../../../src/catalog/catalog-files';

describe('catalog upload files', () => {
  it('answers the size in bytes of well-formed relative paths', () => {
    expect(checkFiles({ 'a.yaml': 'é', 'dir/b.yml': 'xy', '.hidden/c': '' })).toBe(4);
  });

  it.each(['/abs.yaml', '..', 'a/../b', 'a//b', 'a/./b', 'a/', 'a\\b', 'a\nb'])('refuses the path %j', (path) => {
    expect(() => checkFiles({ [path]: 'x' })).toThrow('invalid file path');
  });

  it('refuses no files and too many bytes', () => {
    expect(() => checkFiles({})).toThrow('at least one file');
    expect(() => checkFiles({ a: 'x'.repeat(CATALOG_MAX_TOTAL_BYTES), b: 'y' })).toThrow('bytes');
  });

  it('takes the YAML files of a bundle as its manifests', () => {
    expect(bundleManifests({ 'a.yaml': '', 'b.yml': '', 'README.md': '' })).toEqual(['a.yaml', 'b.yml']);
  });

  it('leaves the references of a readable base to kustomize', () => {
    const files = {
      'kustomization.yaml':
        'resources: [./a.yaml, missing.yaml, c/../a.yaml, https://example.com/x]\ncomponents: [c]\n',
      'a.yaml': '',
      'c/kustomization.yml': 'kind: Component\n',
    };
    expect(kustomizationProblems(files)).toEqual([]);
  });

  it('refuses folders outside the base, at any depth (kustomize would load them from the disk)', () => {
    const files = {
      'kustomization.yaml': 'resources: [../other, /srv/x]\n',
      'o/kustomization.yaml': 'resources: [../a.yaml, ../../up]\ncomponents: [../../../c]\n',
    };
    expect(kustomizationProblems(files).map((p) => `${p.file}: ${p.message}`)).toEqual([
      'kustomization.yaml: resources: "../other" is outside the base',
      'kustomization.yaml: resources: "/srv/x" is outside the base',
      'o/kustomization.yaml: resources: "../../up" is outside the base',
      'o/kustomization.yaml: components: "../../../c" is outside the base',
    ]);
  });

  it('reports a base without a readable kustomization, at its root or deeper', () => {
    expect(kustomizationProblems({ 'a.yaml': '' })).toEqual([
      { file: 'kustomization.yaml', message: 'a base needs a kustomization.yaml' },
    ]);
    expect(kustomizationProblems({ Kustomization: '- resources\n' })).toEqual([
      { file: 'Kustomization', message: 'a kustomization is a YAML mapping' },
    ]);
    const nested = kustomizationProblems({ 'kustomization.yml': 'resources: [o]\n', 'o/kustomization.yaml': 'a: [\n' });
    expect(nested.map((p) => p.file)).toEqual(['o/kustomization.yaml']);
    expect(nested[0]?.message).toMatch(/^not YAML/);
  });
});
