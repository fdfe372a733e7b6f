/**
 * The delivery-validate command as CI runs it: compiled JavaScript (`npm run build`'s tsc and validator
 * generation), rebuilt here first when a source is newer than dist, then spawned with `node`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../src/paths';
import { newestMtime as newest } from '../../helpers/newest-mtime';

const ROOT = repoRoot();
export const CLI = path.join(ROOT, 'dist', 'src', 'validation', 'cli.js');
const VALIDATORS = path.join(ROOT, 'dist', 'validators', '1.32.js');

function builtAt(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

/** Builds dist when it is missing or older than src/, scripts/ or schemas/k8s. */
export function ensureBuilt(): void {
  const sources = Math.max(newest(path.join(ROOT, 'src')), newest(path.join(ROOT, 'scripts')));
  if (builtAt(CLI) < sources) {
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
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
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Non-empty stdout lines. */
  lines: string[];
}

export function cli(
  args: readonly string[],
  options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): CliRun {
  const run = spawnSync(process.execPath, [CLI, ...args], {
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
