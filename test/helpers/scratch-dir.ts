import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The folders this test file made (the module registry is per test file). */
const made: string[] = [];

/** A fresh folder under the system's temporary folder, removed after the test file that asked for it. */
export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
