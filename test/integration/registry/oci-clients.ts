import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../src/paths';

const run = promisify(execFile);

/**
 * Python with the `oras` PyPI package, in the project-local .venv-test: created by the global setup, before any test
 * worker starts (a test file only finds it).
 */
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

/**
 * `skopeo copy` of an OCI layout's `v1` image (oci-layout.ts) to `docker://<destination>` (`host/repository:tag`) over
 * plain HTTP with `credentials` (`user:password`).
 */
export function pushLayout(layoutDir: string, destination: string, credentials: string) {
  return tool('skopeo', [
    '--insecure-policy',
    'copy',
    '--dest-tls-verify=false',
    '--dest-creds',
    credentials,
    `oci:${layoutDir}:v1`,
    `docker://${destination}`,
  ]);
}
