import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../src/paths';
import { quietly } from '../../helpers/web-build';

const run = promisify(execFile);

/**
 * Python with the `oras` PyPI package, in the project-local .venv-test: installed by the global setup (installOras),
 * before any test worker starts (a test file only finds it).
 */
export function orasPython(): string {
  return path.join(repoRoot(), '.venv-test', 'bin', 'python');
}

/** Creates .venv-test with the `oras` package when it is missing (the global setup). */
export async function installOras(): Promise<void> {
  const python = orasPython();
  if (
    await run(python, ['-c', 'import oras.client']).then(
      () => true,
      () => false,
    )
  )
    return;
  await quietly('python3', ['-m', 'venv', path.dirname(path.dirname(python))]);
  await quietly(path.join(path.dirname(python), 'pip'), ['install', '--quiet', 'oras']);
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
