import path from 'node:path';
import { recordedHistories, replayFailures } from '../helpers/workflow-histories';

/**
 * Workflow versioning: the recorded histories of every promotion path (approved then Healthy, expired, cancelled,
 * degraded) replay against the current workflow code; a change that would break a running promotion fails here.
 * Recorded by promotion-workflow.test.ts with UPDATE_PROMOTION_HISTORIES=1.
 */
const DIR = path.join(__dirname, 'fixtures', 'promotion-histories');

it('has a recorded history for every promotion path', () => {
  expect(
    recordedHistories(DIR)
      .map((f) => f.replace(/\.json$/, ''))
      .sort(),
  ).toEqual(['approved', 'cancelled', 'degraded', 'expired', 'reported-before-noted']);
});

it('replays every recorded promotion history against the current workflow code', async () => {
  expect(await replayFailures(DIR)).toEqual([]);
}, 120_000);
