import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../src/paths';
import { elapsedMs } from './stats';

/** willthames/kubernetes-validate from PyPI, in the project-local .venv-bench (created on first use). */
export function kubernetesValidateBinary(log: (text: string) => void): string {
  const venv = path.join(repoRoot(), '.venv-bench');
  const binary = path.join(venv, 'bin', 'kubernetes-validate');
  if (!fs.existsSync(binary)) {
    log(`installing kubernetes-validate into ${venv} ...`);
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(path.join(venv, 'bin', 'pip'), ['install', '--quiet', 'kubernetes-validate'], { stdio: 'inherit' });
  }
  return binary;
}

export interface ExternalRun {
  seconds: number;
  exitCode: number | null;
}

/** Wall time of one process over the file, startup included (as a CI step pays it). */
export function timeProcess(command: string, args: string[]): ExternalRun {
  const start = process.hrtime.bigint();
  const run = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'ignore'], cwd: repoRoot() });
  return { seconds: elapsedMs(start) / 1000, exitCode: run.status };
}
