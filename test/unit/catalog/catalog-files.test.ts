import { CATALOG_MAX_TOTAL_BYTES, checkFiles, manifestsOf } from '../../../src/catalog/catalog-files';

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
    expect(manifestsOf('manifest-bundle', { 'a.yaml': '', 'b.yml': '', 'README.md': '' })).toEqual({
      manifests: ['a.yaml', 'b.yml'],
      problems: [],
    });
  });

  it("takes a base's kustomization resources as its manifests, each a file of the base", () => {
    const files = {
      'kustomization.yaml': 'resources: [./a.yaml, b/c.yaml, missing.yaml, kustomization.yaml, constructor, 3]\n',
      'a.yaml': '',
      'b/c.yaml': '',
      'patch.yaml': '',
    };
    const { manifests, problems } = manifestsOf('kustomize-base', files);
    expect(manifests).toEqual(['a.yaml', 'b/c.yaml']);
    expect(problems.map((p) => p.message)).toEqual([
      'resources: "missing.yaml" is not a file of the base',
      'resources: "kustomization.yaml" is not a file of the base',
      'resources: "constructor" is not a file of the base',
      'resources: 3 is not a file of the base',
    ]);
  });

  it('reports a base without a readable kustomization', () => {
    expect(manifestsOf('kustomize-base', { 'a.yaml': '' }).problems).toEqual([
      { file: 'kustomization.yaml', message: 'a base needs a kustomization.yaml' },
    ]);
    expect(manifestsOf('kustomize-base', { Kustomization: 'resources: {a: 1}\n' }).problems).toEqual([
      { file: 'Kustomization', message: 'a mapping whose resources is a list is expected' },
    ]);
    expect(manifestsOf('kustomize-base', { 'kustomization.yml': 'a: [\n' }).problems[0]?.message).toMatch(/^not YAML/);
  });
});
