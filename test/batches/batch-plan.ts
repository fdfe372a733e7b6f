import fs from 'node:fs';
import path from 'node:path';

/**
 * The full run's integration and end-to-end files, dealt into BATCH_COUNT batches of about equal time. Each batch is
 * one Jest test file (test/batches/batch-NN.test.ts) that runs its files one after another in one module registry: the
 * platform's modules load once per batch instead of once per file (about 3 s of CPU per file on this machine), while
 * each file keeps its own database, task queues, DATA_DIR and ports as before.
 *
 * Files are dealt longest first to the batch with the least time so far, by the durations the last full run recorded
 * (test/batches/durations.json, rewritten with UPDATE_TEST_DURATIONS=1); a file it does not know yet counts as the mean.
 */
export const BATCH_COUNT = 8;

const root = path.resolve(__dirname, '../..');
const TIERS = ['test/integration', 'test/e2e'];

export function batchedFiles(): string[] {
  return TIERS.flatMap((tier) =>
    fs
      .readdirSync(path.join(root, tier), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => path.join(tier, f)),
  ).sort();
}

function knownDurations(): Record<string, number> {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'durations.json'), 'utf8')) as Record<string, number>;
}

/** The files of batch `index` (1-based), as paths relative to the repository root. */
export function batchFiles(index: number): string[] {
  const files = batchedFiles();
  const known = knownDurations();
  const values = Object.values(known);
  const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 1;
  const cost = (f: string) => known[f] ?? mean;
  const bins = Array.from({ length: BATCH_COUNT }, () => ({ total: 0, files: [] as string[] }));
  for (const file of [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))) {
    const lightest = bins.reduce((min, bin) => (bin.total < min.total ? bin : min));
    lightest.total += cost(file);
    lightest.files.push(file);
  }
  const bin = bins[index - 1];
  if (!bin) throw new Error(`no batch ${index}: there are ${BATCH_COUNT}`);
  return bin.files;
}
