import fs from 'node:fs';
import path from 'node:path';

let resolved: string | undefined;

/**
 * The absolute path of `git`, looked up in PATH once per process: every git call then spawns it directly instead of
 * having the system search PATH for each of the thousands of processes a busy repository runs.
 */
export function gitBinary(): string {
  if (resolved) return resolved;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir || '.', 'git');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      resolved = path.resolve(candidate);
      return resolved;
    } catch {
      // not here; next directory
    }
  }
  throw new Error('git is not installed (not found in PATH)');
}
