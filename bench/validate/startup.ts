import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, COMPILED, ensureBuilt } from '../../test/tooling/helpers/built-cli';
import { percentile } from './stats';

const GNU_TIME = '/usr/bin/time';

interface Sample {
  wallMs: number;
  cpuMs: number;
  peakMiB: number;
}

/** One run under GNU time: wall, user + system CPU and peak resident set. */
function timed(args: string[]): Sample {
  const run = spawnSync(GNU_TIME, ['-f', '%e %U %S %M', process.execPath, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const [wall = NaN, user = NaN, sys = NaN, kb = NaN] = (run.stderr.trim().split('\n').at(-1) ?? '')
    .split(' ')
    .map(Number);
  return { wallMs: wall * 1000, cpuMs: (user + sys) * 1000, peakMiB: kb / 1024 };
}

/**
 * `npm run bench:validate -- --startup [--rounds 15]`: delivery-validate's start-up on a one-document file against
 * `node -e 0` (the floor: node's own start) and the unbundled compiled module, interleaved round by round in one run
 * so the machine's load weighs on all three alike; medians and the ratio to the floor.
 */
export async function startupFigures(version: string, rounds: number, line: (text: string) => void): Promise<void> {
  if (!fs.existsSync(GNU_TIME)) throw new Error(`--startup needs GNU time (${GNU_TIME})`);
  await ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-validate-startup-'));
  const one = path.join(dir, 'one-document.yaml');
  fs.writeFileSync(one, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\ndata:\n  key: value\n');
  const commands: [string, string[]][] = [
    ['node -e 0 (floor)', ['-e', '0']],
    ['delivery-validate (bundle, code cache)', [CLI, '--version', version, one]],
    ['compiled module (dist/src/validation/cli.js)', [COMPILED, '--version', version, one]],
  ];
  const samples = commands.map((): Sample[] => []);
  for (let round = 0; round < rounds; round++) {
    commands.forEach(([, args], i) => samples[i]?.push(timed(args)));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const median = (list: Sample[], key: keyof Sample) =>
    percentile(
      list.map((s) => s[key]).sort((a, b) => a - b),
      50,
    );
  const floor = samples[0] ?? [];
  line(`start-up on a one-document file, ${rounds} interleaved rounds, load ${os.loadavg()[0]?.toFixed(2) ?? '?'}:`);
  commands.forEach(([label], i) => {
    const own = samples[i] ?? [];
    const [wall, cpu, mem] = [median(own, 'wallMs'), median(own, 'cpuMs'), median(own, 'peakMiB')];
    line(
      `  ${label.padEnd(48)} wall ${wall.toFixed(0).padStart(5)} ms (${(wall / median(floor, 'wallMs')).toFixed(2)}x)   ` +
        `cpu ${cpu.toFixed(0).padStart(4)} ms (${(cpu / Math.max(median(floor, 'cpuMs'), 1)).toFixed(2)}x)   peak ${mem.toFixed(0)} MiB`,
    );
  });
}
