import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeCacheFile, requireCached, writeCodeCache } from '../../../src/validation/registry/code-cache';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it('loads a module from its code cache, and never from the cache of another source of the same length', () => {
  const file = path.join(dir, 'generated.js');
  fs.writeFileSync(file, 'exports.value = 1; exports.dir = require("node:path").basename(__dirname);');
  writeCodeCache(file);
  expect(fs.statSync(codeCacheFile(file)).size).toBeGreaterThan(32);
  expect(requireCached(file)).toEqual({ value: 1, dir: path.basename(dir) });

  // Regenerated with other code of the same length, the cache left beside it: the new code runs.
  fs.writeFileSync(file, 'exports.value = 2; exports.dir = require("node:path").basename(__dirname);');
  expect(requireCached(file)).toEqual({ value: 2, dir: path.basename(dir) });
  fs.rmSync(codeCacheFile(file));
  expect(requireCached(file)).toEqual({ value: 2, dir: path.basename(dir) });
});
