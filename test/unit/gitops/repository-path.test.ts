import { checkFiles } from '../../../src/catalog/catalog-files';
import { checkPath } from '../../../src/gitops/files-service';
import { checkRepositoryPath, pathProblem } from '../../../src/parse/repository-path';

/** docs/security.md A-89: one path rule for repository files and catalog artifacts. */
describe('the repository path rule', () => {
  it.each(['a.yaml', 'dir/b.yml', '.hidden/c', '.github/workflows/ci.yaml', 'x.gitignore', 'git/config', 'é/ü.yaml'])(
    'accepts %j',
    (path) => {
      expect(pathProblem(path)).toBeNull();
    },
  );

  it.each([
    '.git/config',
    '.GIT/config',
    'a/.git/x',
    'a/.Git',
    '.git./config',
    '.git /config',
    '.git::$INDEX_ALLOCATION/config',
    'GIT~1/config',
  ])('refuses the Git directory spelled %j', (path) => {
    expect(pathProblem(path)).toBe('the .git directory is not a repository path');
  });

  it.each([
    'evil\u202Eexe.yaml',
    'a\u2066b',
    'zero\u200Bwidth.yaml',
    '\uFEFFbom.yaml',
    '.g\u200Cit/config',
    'a\u00ADb',
    'a\nb',
    'a\u0000b',
    'a\u0085b',
  ])('refuses invisible and control characters in %j', (path) => {
    expect(pathProblem(path)).toBe('control, bidirectional or invisible characters');
  });

  it.each(['', '/abs', 'a\\b', 'a//b', 'a/./b', '../x', 'a/', 'x'.repeat(1025), 'x'.repeat(256)])(
    'refuses the malformed path %j',
    (path) => {
      expect(pathProblem(path)).not.toBeNull();
    },
  );

  it('names the path in the 400, with invisible characters spelled out', () => {
    expect(() => checkRepositoryPath('a/\u202Eb')).toThrow('invalid path "a/\\u202eb": control, bidirectional');
    expect(() => checkPath('.GIT/config')).toThrow('invalid path ".GIT/config": the .git directory');
    expect(() => checkFiles({ 'base/.git/hooks/post-checkout': 'x' })).toThrow(
      'invalid file path "base/.git/hooks/post-checkout"',
    );
  });

  // Issue 42 (Low): fullwidth dots (U+FF0E) are `..` once NFKC-normalized, as a browser's URL parser and other tools
  // normalize them; bundle files and the files API took them.
  it.each(['\uff0e\uff0e/x.yaml', 'a/\uff0e\uff0e/b.yaml', '\uff0e/x.yaml', '\uff0egit/config', 'a/\uff0e\uff0e'])(
    'refuses %j, which is a dot segment or .git after NFKC, in every entry point',
    (path) => {
      expect(pathProblem(path)).not.toBeNull();
      expect(() => checkFiles({ [path]: 'x' })).toThrow('invalid file path');
      expect(() => checkPath(path)).toThrow('invalid path');
    },
  );
});
