/**
 * Prints, at the end of every run (and so in CI's log): the 20 slowest test files, the time per tier (the sum of its
 * files' run times, and the wall span from its first file's start to its last file's end), the run's wall time, and
 * one plain closing line, `jest: N passed, N failed, N skipped`, that any reader (human or tool) recognises.
 *
 * A batch of files (test/batches) counts as one file in its tier, and its files, timed by the batch
 * (test/batches/run-batch.ts), are listed among the slowest by their own paths, with the CPU time each used (its
 * worker's and its ended child processes': the machine's share it took; the shared servers count for none). UPDATE_TEST_DURATIONS=1 writes those
 * times to test/batches/durations.json, from which the next runs deal the files into batches.
 */
const fs = require('node:fs');
const path = require('node:path');

const SLOWEST = 20;

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function tierOf(result) {
  const name = result.displayName;
  if (typeof name === 'string') return name;
  if (name && typeof name.name === 'string') return name.name;
  return 'default';
}

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.started = Date.now();
  }

  get fileTimesDir() {
    return path.join(this.rootDir, '.artifacts', 'file-times');
  }

  onRunStart() {
    this.started = Date.now();
    fs.rmSync(this.fileTimesDir, { recursive: true, force: true });
  }

  /** The batched files' times, as the batches of this run left them (`<tier>-<n>.json`: {ms, cpuMs} by path). */
  batchedTimes() {
    const times = [];
    const dir = this.fileTimesDir;
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const tier = name.replace(/-\d+\.json$/, '');
      for (const [file, t] of Object.entries(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')))) {
        times.push({ file, tier, ms: t.ms, cpuMs: t.cpuMs });
      }
    }
    return times;
  }

  writeDurations(times) {
    const file = path.join(this.rootDir, 'test', 'batches', 'durations.json');
    const durations = { ...JSON.parse(fs.readFileSync(file, 'utf8')) };
    for (const { file, ms } of times) durations[file] = Math.round(ms / 100) / 10;
    const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
    fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults.map((r) => ({
      file: path.relative(this.rootDir, r.testFilePath),
      tier: tierOf(r),
      start: r.perfStats.start,
      end: r.perfStats.end,
      ms: Math.max(0, r.perfStats.end - r.perfStats.start),
    }));
    const batched = this.batchedTimes();
    if (process.env.UPDATE_TEST_DURATIONS === '1') this.writeDurations(batched);
    const listed = [...files.filter((f) => !f.file.startsWith(`test${path.sep}batches${path.sep}`)), ...batched];
    const out = [];
    out.push(`\nslowest ${Math.min(SLOWEST, listed.length)} test files (wall, CPU of the batched ones):`);
    for (const f of listed.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) {
      const cpu = f.cpuMs === undefined ? '' : seconds(f.cpuMs);
      out.push(`  ${seconds(f.ms).padStart(8)}  ${cpu.padStart(8)}  ${f.tier.padEnd(11)} ${f.file}`);
    }
    const byCpu = batched.filter((f) => f.cpuMs !== undefined).sort((a, b) => b.cpuMs - a.cpuMs);
    if (byCpu.length > 0) {
      const total = byCpu.reduce((sum, f) => sum + f.cpuMs, 0);
      out.push(`most CPU of the batched files (${seconds(total)} in all):`);
      for (const f of byCpu.slice(0, SLOWEST)) {
        out.push(`  ${seconds(f.cpuMs).padStart(8)}  ${f.tier.padEnd(11)} ${f.file}`);
      }
    }
    out.push('time per tier (files, sum of file times, wall span):');
    const tiers = new Map();
    for (const f of files) {
      const t = tiers.get(f.tier) ?? { files: 0, ms: 0, start: Infinity, end: 0 };
      t.files += 1;
      t.ms += f.ms;
      t.start = Math.min(t.start, f.start);
      t.end = Math.max(t.end, f.end);
      tiers.set(f.tier, t);
    }
    for (const [tier, t] of [...tiers].sort((a, b) => b[1].ms - a[1].ms)) {
      out.push(
        `  ${tier.padEnd(11)} ${String(t.files).padStart(4)} files  ${seconds(t.ms).padStart(9)}  ${seconds(t.end - t.start).padStart(9)}`,
      );
    }
    out.push(`jest wall time: ${seconds(Date.now() - this.started)}`);
    const skipped = results.numPendingTests + results.numTodoTests;
    out.push(`jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`);
    process.stdout.write(`${out.join('\n')}\n`);
  }
}
module.exports = SummaryReporter;
