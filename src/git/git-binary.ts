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

/**
 * glibc's malloc hands the top of its heap back to the kernel whenever a free leaves more than 128 KiB there, so a git
 * process deflating thousands of objects shrinks and grows its heap again for each one (8 `brk` calls an object in
 * `git fast-import`). Where giving memory back is dear (a virtual machine that reports freed pages to its host, as
 * this project's machines do) that is most of the process's time: a fast-import of 5,008 files took 0.96 s, 0.62 s of
 * it in the kernel, and 0.11 s with the heap's top padded by 4 MiB (docs/operations.md "Memory given back"). An operator's
 * own GLIBC_TUNABLES is kept as it is; other C libraries ignore the variable.
 */
export const MALLOC_TUNABLES = 'glibc.malloc.top_pad=4194304';

/** The environment of every git process: no user configuration, the C locale, the heap's top padded. */
export function gitEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LC_ALL: 'C',
    GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? MALLOC_TUNABLES,
  };
}
