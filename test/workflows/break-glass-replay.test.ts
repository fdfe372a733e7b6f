import path from 'node:path';
import { recordedHistories } from '../helpers/workflow-histories';

/**
 * Workflow versioning, the inventory: a recorded history of every path (workflow-replay.test.ts replays them, with
 * every other fixture folder). The recorded histories of every break-glass path (closed by its timer after a day, closed by
 * hand with a second close refused, the timer firing while a close by hand runs, a close by hand coming while the
 * timer closes) replay against the current workflow code. A change that would break a session already open fails
 * here (non-determinism); guard such a change with `patched()`.
 * The fixtures are recorded by break-glass-workflow.test.ts with UPDATE_BREAK_GLASS_HISTORIES=1 and are only
 * re-recorded together with a change that keeps old histories replaying.
 */
const DIR = path.join(__dirname, 'fixtures', 'break-glass-histories');
const files = recordedHistories(DIR);

const PATHS = ['close-by-hand-during-timer', 'closed-by-hand', 'expired', 'timer-during-close-by-hand'];

it('has a recorded history for every break-glass path', () => {
  expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(PATHS);
});
