import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../src/paths';

const run = promisify(execFile);

function onPath(binary: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `skopeo` (Debian package), installed with apt on first use when missing. */
export function ensureSkopeo(): void {
  if (!onPath('skopeo')) execFileSync('apt-get', ['install', '-y', '-qq', 'skopeo'], { stdio: 'ignore' });
}

/** Python with the `oras` PyPI package, in the project-local .venv-test (created on first use). */
export function orasPython(): string {
  const venv = path.join(repoRoot(), '.venv-test');
  const python = path.join(venv, 'bin', 'python');
  if (!fs.existsSync(path.join(venv, 'lib')) || !hasOras(python)) {
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'ignore' });
    execFileSync(path.join(venv, 'bin', 'pip'), ['install', '--quiet', 'oras'], { stdio: 'ignore' });
  }
  return python;
}

function hasOras(python: string): boolean {
  try {
    execFileSync(python, ['-c', 'import oras.client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function tool(command: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(command, args, { env: { ...process.env, HOME: '/tmp' } });
    return { ok: true, stdout, stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
