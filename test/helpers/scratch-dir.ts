import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The folders this test file made (the module registry is per test file). */
const made: string[] = [];

/**
 * A fresh folder under the system's temporary folder, removed after the test file that asked for it (a bench, which
 * runs without jest, calls removeScratchDirs itself).
 */
export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes the folders made so far. */
export function removeScratchDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

// Under jest only: benches import the helpers that make scratch folders too (bench/watch).
if (typeof afterAll === 'function') afterAll(removeScratchDirs);
