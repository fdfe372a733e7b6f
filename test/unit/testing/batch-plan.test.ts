import fs from 'node:fs';
import path from 'node:path';
import { BATCHED_TIERS, batchedFiles, batchFiles, recordedDurations, type BatchedTier } from '../../batches/batch-plan';

const batchesDir = path.resolve(__dirname, '../../batches');
const tiers = Object.keys(BATCHED_TIERS) as BatchedTier[];
const batchesOf = (tier: BatchedTier) =>
  Array.from({ length: BATCHED_TIERS[tier].count }, (_, i) => batchFiles(tier, i + 1));

describe.each(tiers)('the %s batches of a full run', (tier) => {
  it('run every file of the tier exactly once', () => {
    const dealt = batchesOf(tier).flat();
    expect(dealt.length).toBe(new Set(dealt).size);
    expect([...dealt].sort()).toEqual(batchedFiles(tier));
    expect(dealt.length).toBeGreaterThan(10);
    for (const folder of BATCHED_TIERS[tier].folders) expect(dealt.some((f) => f.startsWith(`${folder}/`))).toBe(true);
  });

  it('have one Jest file per batch, and none for a batch that does not exist', () => {
    const dir = path.join(batchesDir, tier);
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(
      Array.from({ length: BATCHED_TIERS[tier].count }, (_, i) => `batch-${String(i + 1).padStart(2, '0')}.test.ts`),
    );
    for (const [i, file] of files.entries()) {
      expect(fs.readFileSync(path.join(dir, file), 'utf8')).toContain(`runBatch('${tier}', ${i + 1});`);
    }
  });

  it('are about equal by the recorded durations: they differ by less than the longest file', () => {
    const durations = recordedDurations();
    const totals = batchesOf(tier).map((files) => files.reduce((sum, f) => sum + (durations[f] ?? 0), 0));
    const longest = Math.max(...batchedFiles(tier).map((f) => durations[f] ?? 0));
    expect(Math.max(...totals) - Math.min(...totals)).toBeLessThanOrEqual(longest);
  });
});

it('leaves the files that replay workflow histories out of the batches, to run alone', () => {
  expect(batchedFiles('workflows')).toContain('test/workflows/cluster-heartbeat.test.ts');
  expect(batchedFiles('workflows')).not.toContain('test/workflows/workflow-replay.test.ts');
  expect(batchedFiles('integration')).not.toContain('test/integration/orgs/invitation-expiry.test.ts');
});
