import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildStamp } from '../../../scripts/build-stamp';

/** Issue 32: a second `npm start` with no source change skips the build; any change to a build input rebuilds. */
describe('the build stamp', () => {
  let root: string;
  const said: string[] = [];
  const check = () => buildStamp('check', root, (line) => said.push(line));
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-stamp-'));
    for (const dir of ['src', 'dist', 'schemas/requests', 'src/node_modules']) {
      fs.mkdirSync(path.join(root, dir), { recursive: true });
    }
    fs.writeFileSync(path.join(root, 'package.json'), '{}');
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(root, 'schemas', 'requests', 'x.json'), '{}');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('rebuilds without a stamp, then skips while the sources are the same', () => {
    expect(check()).toBe(1);
    expect(buildStamp('write', root)).toBe(0);
    expect(check()).toBe(0);
    expect(said.at(-1)).toBe('build: dist/ matches the sources, not rebuilding\n');
    // Touching a file without changing it (a checkout) and files the build does not read change nothing.
    fs.utimesSync(path.join(root, 'src', 'a.ts'), new Date(), new Date(Date.now() + 60_000));
    fs.writeFileSync(path.join(root, 'README.md'), 'docs');
    fs.writeFileSync(path.join(root, 'src', 'node_modules', 'dep.js'), '');
    expect(check()).toBe(0);
  });

  it.each([
    ['a changed source', 'src/a.ts', 'export const a = 2;\n'],
    ['a new source', 'src/b.ts', ''],
    ['a changed schema', 'schemas/requests/x.json', '{"type":"object"}'],
    ['a changed lock file', 'package-lock.json', '{}'],
  ])('rebuilds after %s', (_, file, content) => {
    buildStamp('write', root);
    fs.writeFileSync(path.join(root, file), content);
    expect(check()).toBe(1);
    expect(said.at(-1)).toBe('build: sources changed since the last build, rebuilding\n');
  });
});
