import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config';

/** uid and gid of the user embedded PostgreSQL runs as when started by root; -1 while that user does not exist. */
function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => {
    try {
      return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      return -1;
    }
  };
  return { uid: id('-u'), gid: id('-g') };
}

/** The first existing folder on the way to `target` (itself included) that `who` may not pass through, or null. */
export function blockingFolder(target: string, who: { uid: number; gid: number }): string | null {
  const folders: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  for (const dir of folders) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dir);
    } catch {
      return null; // created later, by root with the default mode, for the user postgres to own
    }
    const shift = stat.uid === who.uid ? 6 : stat.gid === who.gid ? 3 : 0;
    if (((stat.mode >> shift) & 1) === 0) return dir;
  }
  return null;
}

/**
 * Run as root, embedded PostgreSQL runs as the user postgres: a data folder inside a folder that user cannot enter
 * fails deep inside initdb ("init script exited with code 1"). Say so first, naming the folder and the fixes.
 */
export function checkPostgresUserAccess(dataDir: string, databaseDir: string): void {
  if (process.getuid?.() !== 0) return;
  const blocked = blockingFolder(databaseDir, postgresIds());
  if (blocked === null) return;
  const mode = (fs.statSync(blocked).mode & 0o777).toString(8).padStart(4, '0');
  throw new ConfigError(
    `DATA_DIR ${dataDir} is out of reach of embedded PostgreSQL: started as root, it runs as the user "postgres", ` +
      `which cannot enter ${blocked} (mode ${mode}). Set DATA_DIR to a folder that user can reach ` +
      `(for example /var/lib/delivery-platform), or let it through with: chmod o+x ${blocked}; ` +
      `or start the platform as a user other than root.`,
  );
}
