import fs from 'node:fs';
import path from 'node:path';
import { BATCH_COUNT, batchedFiles, batchFiles } from '../../batches/batch-plan';

const batchesDir = path.resolve(__dirname, '../../batches');

describe('the integration batches of a full run', () => {
  it('run every integration and end-to-end file exactly once', () => {
    const dealt = Array.from({ length: BATCH_COUNT }, (_, i) => batchFiles(i + 1)).flat();
    expect(dealt.length).toBe(new Set(dealt).size);
    expect([...dealt].sort()).toEqual(batchedFiles());
    expect(batchedFiles()).toContain('test/integration/releases/releases.test.ts');
    expect(batchedFiles()).toContain('test/e2e/web-ui.test.ts');
  });

  it('have one Jest file per batch, and no file for a batch that does not exist', () => {
    const files = fs.readdirSync(batchesDir).filter((f) => /^batch-\d+\.test\.ts$/.test(f));
    expect(files.sort()).toEqual(
      Array.from({ length: BATCH_COUNT }, (_, i) => `batch-${String(i + 1).padStart(2, '0')}.test.ts`),
    );
    for (const [i, file] of files.entries()) {
      expect(fs.readFileSync(path.join(batchesDir, file), 'utf8')).toContain(`runBatch(${i + 1});`);
    }
  });

  it('are about equal by the recorded durations, each at least as long as its longest file', () => {
    const durations = JSON.parse(fs.readFileSync(path.join(batchesDir, 'durations.json'), 'utf8')) as Record<
      string,
      number
    >;
    const totals = Array.from({ length: BATCH_COUNT }, (_, i) =>
      batchFiles(i + 1).reduce((sum, f) => sum + (durations[f] ?? 0), 0),
    );
    const longest = Math.max(...Object.values(durations));
    expect(Math.max(...totals) - Math.min(...totals)).toBeLessThanOrEqual(longest);
  });
});
