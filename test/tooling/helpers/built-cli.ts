/**
 * The delivery-validate command as CI runs it: the package's bin, the launcher of the bundled CLI (`npm run build`'s
 * tsc, validator generation and bundle), rebuilt here first when a source is newer than dist, then spawned with `node`.
 * COMPILED is the unbundled module tsc makes of src/validation/cli.ts, which the bundle must answer exactly like.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../src/paths';
import { newestMtime as newest } from '../../helpers/newest-mtime';

const ROOT = repoRoot();
export const COMPILED = path.join(ROOT, 'dist', 'src', 'validation', 'cli.js');
export const CLI = path.join(ROOT, 'dist', 'src', 'validation', 'cli', 'delivery-validate.js');
const BUNDLE_CACHE = path.join(ROOT, 'dist', 'src', 'validation', 'cli', 'bundle.js.v8cache');
const VALIDATORS = path.join(ROOT, 'dist', 'validators', '1.32.js');

function builtAt(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

const LOCK = path.join(ROOT, 'dist', '.tooling-build.lock');

function holderAlive(): boolean {
  try {
    process.kill(Number(fs.readFileSync(path.join(LOCK, 'pid'), 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds dist when it is missing or older than src/, scripts/ or schemas/k8s. Test files in parallel workers call it
 * at once on a fresh clone: one builds (holding a lock folder with its pid), the others wait for it and then find dist
 * current, so the build runs once per run, not once per worker.
 */
export async function ensureBuilt(): Promise<void> {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A holder that died (or has not written its pid yet, when the folder is old) leaves the lock to the next.
      const lock = fs.statSync(LOCK, { throwIfNoEntry: false });
      if (!lock) continue;
      if (!holderAlive() && Date.now() - lock.mtimeMs > 2_000) fs.rmSync(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
    buildWhenStale();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

function buildWhenStale(): void {
  const sources = Math.max(newest(path.join(ROOT, 'src')), newest(path.join(ROOT, 'scripts')));
  if (builtAt(COMPILED) < sources) {
    execFileSync(
      process.execPath,
      // No type check: `npm test`'s static checks type-check the same files (and tsc emits the same files either way).
      [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--noCheck'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
  }
  if (builtAt(VALIDATORS) < Math.max(sources, newest(path.join(ROOT, 'schemas', 'k8s')))) {
    execFileSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'build-validators.js')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
  if (builtAt(BUNDLE_CACHE) < Math.max(sources, builtAt(VALIDATORS)) || builtAt(CLI) === 0) {
    execFileSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'bundle-validate-cli.js')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Non-empty stdout lines. */
  lines: string[];
}

/** Runs the command (or, with `command`, another entry point of it: COMPILED). */
export function cli(
  args: readonly string[],
  options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv; command?: string } = {},
): CliRun {
  const run = spawnSync(process.execPath, [options.command ?? CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '', ...options.env },
  });
  return {
    status: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    lines: run.stdout.split('\n').filter((l) => l !== ''),
  };
}
