import fs from 'node:fs';
import path from 'node:path';
import { batchFiles, type BatchedTier } from './batch-plan';
import { cpuMsSoFar } from './cpu-time';
import { removeScratchDirs } from '../helpers/scratch-dir';

const root = path.resolve(__dirname, '../..');
/** Where each batch leaves its files' wall and CPU times for test/summary-reporter.js (its fileTimesDir). */
const FILE_TIMES_DIR = path.join(root, '.artifacts', 'file-times');

/**
 * Registers the files of `tier`'s batch `index`, each inside a describe named after its path: its top-level hooks then
 * apply to its own tests only, as when it runs alone. The first hook and the last one of each describe time the file (wall and CPU).
 */
export function runBatch(tier: BatchedTier, index: number): void {
  const times: Record<string, { ms: number; cpuMs: number }> = {};
  for (const file of batchFiles(tier, index)) {
    describe(file, () => {
      let started = 0;
      let cpuStarted = 0;
      beforeAll(() => {
        started = Date.now();
        cpuStarted = cpuMsSoFar();
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(path.join(root, file));
      afterAll(() => {
        times[file] = { ms: Date.now() - started, cpuMs: Math.round(cpuMsSoFar() - cpuStarted) };
        // scratch-dir.ts registers its own cleanup once, in the first file that imports it: later files of the batch
        // share that module, so their folders are removed here.
        removeScratchDirs();
      });
    });
  }
  afterAll(() => {
    fs.mkdirSync(FILE_TIMES_DIR, { recursive: true });
    fs.writeFileSync(path.join(FILE_TIMES_DIR, `${tier}-${index}.json`), JSON.stringify(times));
  });
}
