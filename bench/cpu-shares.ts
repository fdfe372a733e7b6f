import fs from 'node:fs';

/** CPU seconds per clock tick of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/**
 * CPU milliseconds (user + system, every thread) used so far: this process (`platform`), the processes `named` by pid
 * (a worker process), Temporal, PostgreSQL.
 */
function cpuNow(named: Record<string, number>): Map<string, number> {
  const names = new Map(Object.entries(named).map(([name, pid]) => [pid, name]));
  const totals = new Map<string, number>([
    ['platform', 0],
    ...[...names.values()].map((name) => [name, 0] as [string, number]),
    ['temporal', 0],
    ['postgres', 0],
  ]);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended while listed
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const pid = Number(entry);
    const group =
      pid === process.pid ? 'platform' : (names.get(pid) ?? (comm.startsWith('temporal') ? 'temporal' : comm));
    if (totals.has(group)) totals.set(group, totals.get(group)! + (Number(fields[11]) + Number(fields[12])) * TICK_MS);
  }
  return totals;
}

/**
 * The CPU a phase costs in each process (this one: API and worker; those `named`; the Temporal server; every PostgreSQL
 * process), per unit of work: `cpuShares()` before, `per(n)` after, answering "platform 12.0 ms, temporal ...". A process that ends
 * during the phase loses its share (PostgreSQL backends: the benches keep their pools open); a client process counts
 * its own (bench/release/release-driver.ts).
 */
export function cpuShares(named: Record<string, number> = {}) {
  const spans = cpuSpans(named);
  spans.begin();
  return {
    per(units: number): string {
      spans.end();
      return spans.per(units);
    },
  };
}

/**
 * `cpuShares` of a phase run in several spans (bench:release's rounds, interleaved with its floor's): `begin()` and
 * `end()` around each, then `per(n)` of their sum.
 */
export function cpuSpans(named: Record<string, number> = {}) {
  const used = new Map<string, number>();
  let before: Map<string, number> | null = null;
  return {
    begin() {
      before = cpuNow(named);
    },
    end() {
      if (!before) return;
      for (const [group, ms] of cpuNow(named)) used.set(group, (used.get(group) ?? 0) + ms - (before.get(group) ?? 0));
      before = null;
    },
    per(units: number): string {
      return [...used].map(([group, ms]) => `${group} ${(ms / units).toFixed(1)} ms`).join(', ');
    },
  };
}
