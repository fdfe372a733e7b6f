import fs from 'node:fs';
import path from 'node:path';
import { batchFiles } from './batch-plan';

const root = path.resolve(__dirname, '../..');
/** Where each batch leaves its files' wall times for test/summary-reporter.js. */
export const FILE_TIMES_DIR = path.join(root, '.artifacts', 'file-times');

/**
 * Registers batch `index`'s files, each inside a describe named after its path: its top-level hooks then apply to its
 * own tests only, as when it runs alone. The first hook and the last one of each describe time the file.
 */
export function runBatch(index: number): void {
  const times: Record<string, number> = {};
  for (const file of batchFiles(index)) {
    describe(file, () => {
      let started = 0;
      beforeAll(() => {
        started = Date.now();
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(path.join(root, file));
      afterAll(() => {
        times[file] = Date.now() - started;
      });
    });
  }
  afterAll(() => {
    fs.mkdirSync(FILE_TIMES_DIR, { recursive: true });
    fs.writeFileSync(path.join(FILE_TIMES_DIR, `batch-${index}.json`), JSON.stringify(times));
  });
}
