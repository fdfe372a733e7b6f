import fs from 'node:fs';
import path from 'node:path';

/** The newest modification time (ms) of any file under `dir`: sources newer than a build mean it is stale. */
export function newestMtime(dir: string): number {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}
