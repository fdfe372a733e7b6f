import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ensureBuilt } from '../../test/tooling/helpers/built-cli';
import { buildManifest } from './corpus-file';
import { elapsedMs, percentile } from './stats';

const GNU_TIME = '/usr/bin/time';

export interface CommandRun {
  seconds: number;
  /** Peak resident set of the command (its children included), MiB. */
  peakMiB: number;
  exitCode: number | null;
}

/** Wall time and peak memory with GNU time's -v (maximum resident set size), which counts waited children. */
function withGnuTime(args: string[]): CommandRun {
  const start = process.hrtime.bigint();
  const run = spawnSync(GNU_TIME, ['-v', process.execPath, CLI, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const seconds = elapsedMs(start) / 1000;
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  const status = Number(/Exit status: (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  return { seconds, peakMiB: kb / 1024, exitCode: Number.isNaN(status) ? null : status };
}

/** Without GNU time: VmHWM (peak resident set) of the process, read from /proc until it exits. */
async function withProc(args: string[]): Promise<CommandRun> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
  let peakKb = 0;
  const poll = setInterval(() => {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, { encoding: 'utf8', flag: 'r' });
    peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
  }, 5);
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  return { seconds: elapsedMs(start) / 1000, peakMiB: peakKb / 1024, exitCode };
}

async function measure(args: string[]): Promise<CommandRun> {
  if (fs.existsSync(GNU_TIME)) return withGnuTime(args);
  try {
    return await withProc(args);
  } catch {
    return { seconds: NaN, peakMiB: NaN, exitCode: null };
  }
}

/**
 * The compiled `delivery-validate` as CI runs it (its bin, `node dist/src/validation/cli/delivery-validate.js`, built first if stale):
 * start-up to the first result on a one-document file (median of 15), then wall time and peak memory on a
 * 1-document, a 10,000-, a 40,000- (20 MB, issue 15) and a 100,000-resource file.
 */
export async function cliFigures(
  version: string,
  docs: readonly string[],
  dir: string,
  line: (text: string) => void,
): Promise<void> {
  await ensureBuilt();
  const how = fs.existsSync(GNU_TIME) ? `${GNU_TIME} -v` : '/proc VmHWM (install GNU time for exact figures)';
  line(`delivery-validate (compiled, node ${process.version}; peak memory from ${how}):`);
  const one = path.join(dir, 'one-document.yaml');
  fs.writeFileSync(one, docs[0] ?? '');
  const startups: number[] = [];
  for (let i = 0; i < 15; i++) startups.push((await measure(['--version', version, one])).seconds * 1000);
  const sorted = [...startups].sort((a, b) => a - b);
  line(
    `  start-up to first result, 1-document file: median ${percentile(sorted, 50).toFixed(0)} ms, min ${sorted[0]?.toFixed(0)} ms, p90 ${percentile(sorted, 90).toFixed(0)} ms (target < 300 ms)`,
  );
  for (const count of [1, 10_000, 40_000, 100_000]) {
    const file = count === 1 ? one : path.join(dir, `corpus-${count}.yaml`);
    if (!fs.existsSync(file)) fs.writeFileSync(file, buildManifest(docs, count));
    const run = await measure(['--version', version, '--output', 'json', file]);
    const mb = (fs.statSync(file).size / 1e6).toFixed(1);
    line(
      `  ${String(count).padStart(7)} resources (${mb} MB): ${run.seconds.toFixed(2)} s wall, peak ${run.peakMiB.toFixed(0)} MiB, exit ${run.exitCode}${count === 40_000 ? ' (target < 100 MiB)' : ''}`,
    );
  }
}
