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
      'kustomization.yaml': 'resources: [./a.yaml, missing.yaml, c/../a.yaml]\ncomponents: [c]\n',
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

  // Issue 42 M3: kustomize reads field names case-insensitively (Go's encoding/json folding: `Resources`,
  // `reſources`) and resolves YAML merge keys, and many fields name files or folders; each of these loads a folder
  // outside the base with the real kustomize v5.4.2 (docs/security.md A-KZ2).
  it.each([
    ['Resources: [../x]\n', 'resources: "../x"'],
    ['RESOURCES: [../x]\n', 'resources: "../x"'],
    ['re\u017fources: [../x]\n', 'resources: "../x"'],
    ['<<: {resources: [../x]}\n', 'resources: "../x"'],
    ['base: &b {resources: [../x]}\n<<: *b\n', 'resources: "../x"'],
    ['resources: [a.yaml]\nComponents: [../c]\n', 'components: "../c"'],
    ['bases: [../x]\n', 'bases: "../x"'],
    ['transformers: [../t]\n', 'transformers: "../t"'],
    ['generators: [../g]\n', 'generators: "../g"'],
    ['validators: [../v]\n', 'validators: "../v"'],
    ['crds: [../crd.json]\n', 'crds: "../crd.json"'],
    ['configurations: [../conf.yaml]\n', 'configurations: "../conf.yaml"'],
    ['patchesStrategicMerge: [../p.yaml]\n', 'patchesStrategicMerge: "../p.yaml"'],
    ['patches: [{path: ../p.yaml}]\n', 'path: "../p.yaml"'],
    ['patchesJson6902: [{Path: ../p.yaml, target: {kind: A}}]\n', 'path: "../p.yaml"'],
    ['configMapGenerator: [{name: g, files: [k=../f]}]\n', 'files: "../f"'],
    ['secretGenerator: [{name: g, envs: [../e]}]\n', 'envs: "../e"'],
    ['configMapGenerator: [{name: g, env: ../e}]\n', 'env: "../e"'],
    ['openapi: {path: ../o.json}\n', 'path: "../o.json"'],
    ['replacements: [{path: ../r.yaml}]\n', 'path: "../r.yaml"'],
    ['helmGlobals: {chartHome: ../charts}\n', 'chartHome: "../charts"'],
    ['resources: [/etc/passwd]\n', 'resources: "/etc/passwd"'],
  ])('refuses %j: a reference outside the base, however kustomize spells the field', (kustomization, what) => {
    expect(kustomizationProblems({ 'kustomization.yaml': kustomization })).toEqual([
      { file: 'kustomization.yaml', message: `${what} is outside the base` },
    ]);
  });

  it('reads the plugin configurations a kustomization names, and inline ones, with the same rule', () => {
    const config = 'apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata: {name: g}\nfiles: [../../etc/hostname]\n';
    const named = { 'kustomization.yaml': 'generators: [gen/cm.yaml]\n', 'gen/cm.yaml': config };
    expect(kustomizationProblems(named)).toEqual([
      { file: 'gen/cm.yaml', message: 'files: "../../etc/hostname" is outside the base' },
    ]);
    const inline = { 'kustomization.yaml': `transformers:\n- |\n${config.replace(/^/gm, '  ')}` };
    expect(kustomizationProblems(inline)).toEqual([
      { file: 'kustomization.yaml', message: 'files: "../../etc/hostname" is outside the base' },
    ]);
  });

  // Issue 42 M2: every spelling kustomize's loaders take as remote (its file loader's http(s) scheme test, its git
  // RepoSpec parser: `git::`, `gh:`, scp-like `git@host:`, `github.com/`, `_git/`, `//` subfolders, `file://`).
  it.each([
    'http://127.0.0.1:8080/x.yaml',
    'HTTP://127.0.0.1:8080/x.yaml',
    'HtTpS://localhost/x.yaml',
    '//127.0.0.1/x.yaml',
    'git::http://127.0.0.1/a/b',
    'gh:org/repo',
    'git@127.0.0.1:org/repo',
    'github.com/org/repo',
    'GitHub.com/org/repo/x?ref=v1',
    'ssh://git@host/org/repo',
    'file:///srv/repo',
    'oci://registry/x',
    'dev.azure.com/org/_git/repo',
    'x//y',
    ' http://127.0.0.1:8080/x.yaml',
  ])('refuses the remote reference %j before any build', (reference) => {
    const problems = kustomizationProblems({ 'kustomization.yaml': `resources:\n- ${JSON.stringify(reference)}\n` });
    expect(problems).toEqual([
      {
        file: 'kustomization.yaml',
        message: `resources: ${JSON.stringify(reference)} is a remote reference: renderers have no network, a base holds its own files`,
      },
    ]);
  });
});
