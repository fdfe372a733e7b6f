import fs from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU milliseconds this process has used so far, its own and its ended child processes' (git, the CLI, tsc, a
 * nested jest, chromium once closed: /proc/self/stat's cutime and cstime), so a file's share of the machine shows
 * beside its wall time. Servers shared by the run (PostgreSQL, Temporal) count for no file.
 */
export function cpuMsSoFar(): number {
  const own = process.cpuUsage();
  // Fields after the command name, which is in parentheses and may hold spaces: cutime and cstime are the 16th and
  // 17th fields of the whole line, the 14th and 15th after ") ".
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = (Number(fields[13]) + Number(fields[14])) * (1000 / TICKS_PER_SECOND);
  return (own.user + own.system) / 1000 + children;
}
