import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { bundle } from '../helpers/time-skipping';
import { installTemporalRuntime } from '../../src/temporal/runtime';

/**
 * Workflow versioning: the recorded histories of every promotion path (approved then Healthy, expired, cancelled,
 * degraded) replay against the current workflow code; a change that would break a running promotion fails here.
 * Recorded by promotion-workflow.test.ts with UPDATE_PROMOTION_HISTORIES=1.
 */
const DIR = path.join(__dirname, 'fixtures', 'promotion-histories');
const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));

it('has a recorded history for every promotion path', () => {
  expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(['approved', 'cancelled', 'degraded', 'expired']);
});

it('replays every recorded promotion history against the current workflow code', async () => {
  installTemporalRuntime();
  const workflowBundle = await bundle(require.resolve('../../workflows'));
  const histories = files.map((file) => ({
    workflowId: file,
    history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8'))),
  }));
  const failures: string[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle }, histories)) {
    if (result.error) failures.push(`${result.workflowId}: ${String(result.error)}`);
  }
  expect(failures).toEqual([]);
}, 120_000);
