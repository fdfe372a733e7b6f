import fs from 'node:fs';
import path from 'node:path';

let cached: string | undefined;

/** The repository root (where package.json lives), from source under tsx/Jest or from dist/ after tsc. */
export function repoRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  cached = dir;
  return dir;
}
