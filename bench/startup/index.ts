import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processFamily, stillAlive } from '../../src/embedded/process-tree';
import { benchPorts } from '../ports';
import { repoRoot } from '../../src/paths';
import { runBench } from '../run-bench';

/**
 * Time from `node dist/scripts/start.js` to the first 200 from /readyz on embedded defaults, cold (fresh DATA_DIR:
 * initdb, first migration) and warm (restart on the same DATA_DIR), the time for a clean SIGTERM stop, and a second
 * `npm start` as a user types it (the build stamp finds dist/ current, so no build runs; goal < 8 s), and Ctrl-C on
 * `npm start` as a terminal sends it: SIGINT to the whole process group, timed until every process of it and every
 * process it started (PostgreSQL, the dev server, in groups of their own) has exited, over CTRL_C_ROUNDS runs (goal
 * < 2 s).
 * Run `npm run build` first; `npm run bench:startup` does not build.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '3');
const CTRL_C_ROUNDS = Number(process.env.CTRL_C_ROUNDS ?? '5');

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('platform exited before it was ready');
    const res = await fetch(url).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not ready after ${timeoutMs} ms`);
}

/** `via: 'npm'` runs `npm start` in its own process group, so the SIGTERM reaches npm, its shell and the platform. */
async function once(dataDir: string, env: Record<string, string>, via: 'node' | 'npm' = 'node') {
  const started = process.hrtime.bigint();
  const [command, args] =
    via === 'npm'
      ? ['npm', ['start', '--silent']]
      : [process.execPath, [path.join(repoRoot(), 'dist', 'scripts', 'start.js')]];
  const child = spawn(command, args, {
    cwd: repoRoot(),
    env: { ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: via === 'npm',
  });
  await waitReady(`http://127.0.0.1:${env.PORT}/readyz`, child, 120_000);
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  const stopStarted = process.hrtime.bigint();
  if (via === 'npm' && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  else child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { readyMs, stopMs: Number(process.hrtime.bigint() - stopStarted) / 1e6 };
}

/** `npm start` in a process group of its own, as a terminal runs it; then Ctrl-C to that group. */
async function ctrlC(dataDir: string, env: Record<string, string>): Promise<number> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: repoRoot(),
    env: { ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true,
  });
  await waitReady(`http://127.0.0.1:${env.PORT}/readyz`, child, 120_000);
  const family = processFamily(child.pid!);
  const started = process.hrtime.bigint();
  process.kill(-child.pid!, 'SIGINT');
  while (stillAlive(family).length > 0) await new Promise((r) => setTimeout(r, 5));
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(repoRoot(), 'dist', 'scripts', 'start.js'))) {
    throw new Error('dist/ missing: run `npm run build` first');
  }
  const cold: number[] = [];
  const warm: number[] = [];
  const stop: number[] = [];
  const npmStart: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
    fs.chmodSync(dataDir, 0o755);
    const env = await benchPorts();
    try {
      const first = await once(dataDir, env);
      const second = await once(dataDir, env);
      const third = await once(dataDir, env, 'npm');
      cold.push(first.readyMs);
      warm.push(second.readyMs);
      npmStart.push(third.readyMs);
      stop.push(first.stopMs, second.stopMs);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const interrupt: number[] = [];
  const ctrlCDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  fs.chmodSync(ctrlCDir, 0o755);
  try {
    const env = await benchPorts();
    for (let round = 0; round < CTRL_C_ROUNDS; round += 1) interrupt.push(await ctrlC(ctrlCDir, env));
  } finally {
    fs.rmSync(ctrlCDir, { recursive: true, force: true });
  }
  const fmt = (v: number[]) => `median ${median(v).toFixed(0)} ms (runs: ${v.map((x) => x.toFixed(0)).join(', ')})`;
  process.stdout.write(`startup to /readyz 200, cold (fresh DATA_DIR): ${fmt(cold)}\n`);
  process.stdout.write(`startup to /readyz 200, warm (restart):         ${fmt(warm)}\n`);
  process.stdout.write(`second \`npm start\` (build stamp current):      ${fmt(npmStart)}\n`);
  process.stdout.write(`SIGTERM to exit, everything stopped:            ${fmt(stop)}\n`);
  const spread = (v: number[]) =>
    `min ${Math.min(...v).toFixed(0)} / median ${median(v).toFixed(0)} / max ${Math.max(...v).toFixed(0)} ms`;
  process.stdout.write(
    `Ctrl-C (SIGINT to npm start's group) to every process exited, ${interrupt.length} runs: ${spread(interrupt)}` +
      ` (goal 2000 ms)\n`,
  );
  process.stdout.write(`second npm start goal: 8000 ms; ratio ${(median(npmStart) / 8000).toFixed(3)}\n`);
  process.stdout.write(`acceptance bound: 60000 ms; cold/bound ratio ${(median(cold) / 60000).toFixed(3)}\n`);
}

runBench(main);
