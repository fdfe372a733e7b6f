import fs from 'node:fs';

/**
 * Runs `work` while holding `<file>.lock` (created exclusively). Refresh tokens are single-use and a second use ends
 * the whole session, so two CLI processes must never refresh the same session at once. A lock older than `staleMs`
 * was left by a killed process and is taken over.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>, timeoutMs = 15_000, staleMs = 30_000) {
  const lock = `${file}.lock`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > staleMs) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`another delivery command holds ${lock}`);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
