import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logging/logger';

/** A process this run started and must stop, recorded under DATA_DIR so a later run can stop it if we crash. */
interface ProcessRecord {
  pid: number;
  /** The Node process that started it and stops it on exit. */
  owner: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** On Linux, whether `pid` still runs `program` (a recycled pid must not be signalled); elsewhere, assumed. */
function runs(pid: number, program: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(program);
  } catch {
    return !fs.existsSync('/proc/self');
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

export function processRecordFile(dataDir: string, name: string): string {
  return path.join(dataDir, 'run', `${name}.json`);
}

export function recordProcess(file: string, pid: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ pid, owner: process.pid } satisfies ProcessRecord));
}

export function clearProcessRecord(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * Stops what an earlier run left behind: the recorded process when the Node process that started it is gone (killed
 * before it could stop its children). A record whose owner still runs (a platform the operator CLI shares) is kept.
 * `signal` is the process's own orderly stop (PostgreSQL: SIGINT, fast shutdown); SIGKILL after `graceMs`.
 */
export async function stopOrphan(
  file: string,
  program: string,
  signal: NodeJS.Signals,
  log: Logger,
  graceMs = 15_000,
): Promise<void> {
  let record: ProcessRecord;
  try {
    record = JSON.parse(fs.readFileSync(file, 'utf8')) as ProcessRecord;
  } catch {
    return;
  }
  if (record.owner !== process.pid && alive(record.owner)) return;
  if (alive(record.pid) && runs(record.pid, program)) {
    log.warn('stopping a process an earlier run left behind', { program, pid: record.pid, owner: record.owner });
    process.kill(record.pid, signal);
    if (!(await waitForExit(record.pid, graceMs))) {
      process.kill(record.pid, 'SIGKILL');
      await waitForExit(record.pid, 5_000);
    }
  }
  clearProcessRecord(file);
}
