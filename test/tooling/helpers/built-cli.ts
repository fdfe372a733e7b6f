/**
 * The delivery-validate command as CI runs it: the package's bin, the launcher of the bundled CLI (`npm run build`'s
 * compile, validator generation and bundle), rebuilt here first when a source is newer than dist, then spawned with
 * `node`. COMPILED is the unbundled module compiled from src/validation/cli.ts, which the bundle must answer exactly
 * like.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../../src/paths';
import { builtAt, compileWhenStale, newestSource, withBuildLock } from '../../helpers/built-dist';
import { newestMtime as newest } from '../../helpers/newest-mtime';

const ROOT = repoRoot();
export const COMPILED = path.join(ROOT, 'dist', 'src', 'validation', 'cli.js');
export const CLI = path.join(ROOT, 'dist', 'src', 'validation', 'cli', 'delivery-validate.js');
const BUNDLE_CACHE = path.join(ROOT, 'dist', 'src', 'validation', 'cli', 'bundle.js.v8cache');
const VALIDATORS = path.join(ROOT, 'dist', 'validators', '1.32.js');

/** Builds dist when it is missing or older than its sources or schemas/k8s, once per run (test/helpers/built-dist.ts). */
export async function ensureBuilt(): Promise<void> {
  withBuildLock(buildWhenStale);
}

function buildWhenStale(): void {
  const sources = newestSource();
  compileWhenStale(sources);
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
