import fs from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { testFiles, runsAlone } = require('./runs-alone') as {
  testFiles: (root: string, folders: string[]) => string[];
  runsAlone: (root: string, file: string) => boolean;
};

/**
 * The full run's files of the tiers that load the most per file, dealt into batches of about equal time. Each batch is
 * one Jest test file (test/batches/<tier>/batch-NN.test.ts) that runs its files one after another in one module
 * registry: the platform's modules (or the workflow test environment's, or the validation engine's) load once per
 * batch instead of once per file (about 3 CPU-s per integration file on this machine), while each file keeps its own
 * database, task queues, DATA_DIR, ports and time-skipping server as before. Files that replay workflow histories run
 * alone (test/batches/runs-alone.js).
 *
 * Files are dealt longest first to the batch with the least time so far, by the durations the last full run recorded
 * (test/batches/durations.json, rewritten with UPDATE_TEST_DURATIONS=1); a file it does not know yet counts as the mean
 * of its tier.
 */
export const BATCHED_TIERS = {
  integration: { count: 8, folders: ['test/integration', 'test/e2e'] },
  workflows: { count: 2, folders: ['test/workflows'] },
  tooling: { count: 2, folders: ['test/tooling'] },
} as const;

export type BatchedTier = keyof typeof BATCHED_TIERS;

const root = path.resolve(__dirname, '../..');

/** The files of `tier` a full run batches (all but those that run alone), as paths relative to the repository root. */
export function batchedFiles(tier: BatchedTier): string[] {
  return testFiles(root, [...BATCHED_TIERS[tier].folders]).filter((f) => !runsAlone(root, f));
}

export function recordedDurations(): Record<string, number> {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'durations.json'), 'utf8')) as Record<string, number>;
}

/** The files of `tier`'s batch `index` (1-based), as paths relative to the repository root. */
export function batchFiles(tier: BatchedTier, index: number): string[] {
  const files = batchedFiles(tier);
  const known = recordedDurations();
  const values = files.map((f) => known[f]).filter((d): d is number => d !== undefined);
  const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 1;
  const cost = (f: string) => known[f] ?? mean;
  const bins = Array.from({ length: BATCHED_TIERS[tier].count }, () => ({ total: 0, files: [] as string[] }));
  for (const file of [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))) {
    const lightest = bins.reduce((min, bin) => (bin.total < min.total ? bin : min));
    lightest.total += cost(file);
    lightest.files.push(file);
  }
  const bin = bins[index - 1];
  if (!bin) throw new Error(`no ${tier} batch ${index}: there are ${bins.length}`);
  return bin.files;
}
