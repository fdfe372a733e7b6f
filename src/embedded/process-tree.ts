import fs from 'node:fs';

/** Parent id and process group of a live process, from /proc (Linux), or null once it is gone. */
function statOf(pid: number): { ppid: number; pgrp: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after its last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has exited: only its parent's wait is missing.
    if (fields[0] === 'Z') return null;
    return { ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

function livePids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/**
 * Every live process started under `root` (children, grandchildren, ...) plus every member of the process group
 * `group`: what a Ctrl-C to that group must end, including children a supervisor put in groups of their own.
 */
export function processFamily(root: number, group = root): number[] {
  const stats = new Map<number, { ppid: number; pgrp: number }>();
  for (const pid of livePids()) {
    const stat = statOf(pid);
    if (stat) stats.set(pid, stat);
  }
  const family = new Set<number>([...stats].filter(([, s]) => s.pgrp === group).map(([pid]) => pid));
  if (stats.has(root)) family.add(root);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!family.has(pid) && family.has(s.ppid)) {
        family.add(pid);
        grew = true;
      }
    }
  }
  return [...family].sort((a, b) => a - b);
}

/** The process group of a live process, or null once it is gone. */
export function processGroupOf(pid: number): number | null {
  return statOf(pid)?.pgrp ?? null;
}

/** The processes of `pids` still alive (zombies count as exited). */
export function stillAlive(pids: readonly number[]): number[] {
  return pids.filter((pid) => statOf(pid) !== null);
}
