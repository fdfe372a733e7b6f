import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../src/paths';

/**
 * The build stamp behind fast restarts: `npm start` runs `check`, which exits 0 when dist/ was built from exactly the
 * sources there are now (one SHA-256 over every build input's path and bytes), so the start skips the build; `npm
 * run build` ends with `write`. Content hashes, not modification times: a checkout or a copy changes those alone.
 * Compiled with the rest (dist/scripts/build-stamp.js): on a fresh clone `check` cannot run, and the build does.
 */
/** What `npm run build` reads: compiled folders, request and Kubernetes schemas, web sources, the build settings. */
const INPUTS = [
  'src',
  'api',
  'workflows',
  'activities',
  'workers',
  'migrations',
  'scripts',
  'schemas',
  'proto',
  'web',
  'cli',
  'client',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const SKIPPED = new Set(['node_modules', 'dist', '.vite', 'coverage']);

function filesUnder(root: string, relative: string): string[] {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [relative];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((entry) => !SKIPPED.has(entry.name))
    .flatMap((entry) => filesUnder(root, path.join(relative, entry.name)));
}

export function sourceDigest(root: string): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(root, input)).sort()) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** `write` records the digest in dist/.build-stamp; `check` answers 0 when it is current, else 1 (rebuild). */
export function buildStamp(
  mode: string | undefined,
  root = repoRoot(),
  say: (line: string) => void = (line) => process.stdout.write(line),
) {
  const stamp = path.join(root, 'dist', '.build-stamp');
  if (mode === 'write') {
    fs.writeFileSync(stamp, `${sourceDigest(root)}\n`);
    return 0;
  }
  if (mode !== 'check') {
    process.stderr.write('usage: node dist/scripts/build-stamp.js check|write\n');
    return 2;
  }
  const stamped = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8').trim() : '';
  if (stamped !== '' && stamped === sourceDigest(root)) {
    say('build: dist/ matches the sources, not rebuilding\n');
    return 0;
  }
  say('build: sources changed since the last build, rebuilding\n');
  return 1;
}

if (require.main === module) process.exitCode = buildStamp(process.argv[2]);
