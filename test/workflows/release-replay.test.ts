import path from 'node:path';
import { recordedHistories } from '../helpers/workflow-histories';

/**
 * Workflow versioning, the inventory: a recorded history of every path (workflow-replay.test.ts replays them, with
 * every other fixture folder). The recorded histories of every release path (approved with a manual deploy, rejected,
 * expired, blocked, cancelled, queued then timed out, degraded) replay against the current workflow code. A change
 * that would break a release already running fails here (non-determinism); guard such a change with `patched()`.
 * `*.child-commit.json` were recorded before the `release-commit-activity` patch (commit in a child workflow) and
 * still replay down the unpatched branch. The histories without the `release-freeze-gate` marker replay down its
 * unpatched branch; `frozen-then-committed` was recorded with it (a freeze holding the commit back).
 * `*.fixed-poll.json` were recorded before the `release-bounded-waits` patch (a fixed queue poll, the status search
 * attribute upserted on every poll) and replay down its unpatched branch; the plain ones were recorded after it, and
 * `frozen-62h` is a release held by a 62-hour freeze (history-budget-deploys.test.ts). `reported-before-noted` (issue
 * 27) ends Healthy from the report markReleaseCommitted found already recorded; its `.fixed-poll` was recorded before
 * the bounded waits. `*.separate-checks.json` were recorded before the `release-freeze-in-turn` patch (the freeze check
 * and the target's turn as two activities) and replay down its unpatched branch; the plain ones took both in one
 * (takeReleaseTurn). `*.activity-steps.json` were recorded before the `release-local-steps` patch (validation, the
 * turn, the commit and its record as activities on task queues) and replay down its unpatched branch; the plain ones
 * run those steps as local activities. `*.separate-turn.json` were recorded before the `release-prepare-with-turn`
 * patch (issue 46: the freeze check and the turn a local activity of their own after the prepare step) and replay down
 * its unpatched branch; the plain ones take them in the prepare step when nothing waits between (every path has both).
 * The fixtures are recorded by release-workflow.test.ts with UPDATE_RELEASE_HISTORIES=1 and are only re-recorded
 * together with a change that keeps old histories replaying.
 */
const DIR = path.join(__dirname, 'fixtures', 'release-histories');
const files = recordedHistories(DIR);

const PATHS = [
  'approved-manual-deploy',
  'blocked',
  'cancelled',
  'degraded',
  'expired',
  'queued-sync-timeout',
  'rejected',
];

/** Paths recorded after the `release-freeze-gate` patch only (they did not exist before it). */
const GATED_PATHS = ['frozen-then-committed', 'reported-before-noted'];
/** Paths recorded after the `release-bounded-waits` patch only. */
const BOUNDED_PATHS = ['frozen-62h'];
/**
 * Paths recorded after the `release-local-steps` patch only (issue 43): an approval accepted while the row turns
 * PendingApproval (`enteringApprovals`), and a commit that outlasts a Git storage outage (the `commit-outlasts-outages`
 * patch: the first attempts as a local activity, then the patient commit activity on the git queue).
 * `outage-then-committed.details-only` was recorded before the `release-commit-wait-noted` patch (the wait shown only
 * in the workflow's current details, not on the row) and replays down its unpatched branch.
 */
const ISSUE_43_PATHS = ['approval-during-transition', 'outage-then-committed', 'outage-then-committed.details-only'];
/**
 * Paths recorded after the `release-service-order` patch only (issue 48): three groups linked by dependsOn committed
 * one after another, each waited Healthy; and a Degraded first group that stops before the second.
 */
const ISSUE_48_PATHS = ['service-order', 'service-order-degraded'];
/**
 * Issue 51: a cancel accepted while the freeze check that made a long run continue as new answered, taken; a deploy
 * accepted while the row turned AwaitingDeploy, before the workflow held that status.
 */
const ISSUE_51_PATHS = ['cancelled-at-continue', 'deploy-during-transition'];

it('has a recorded history for every release path, from before and after the direct-commit, bounded-wait, freeze-in-turn, local-steps and prepare-with-turn patches', () => {
  /** A path recorded now, and before the prepare-with-turn patch. */
  const now = (p: string) => [p, `${p}.separate-turn`];
  const expected = [
    ...PATHS.flatMap((p) => [
      `${p}.child-commit`,
      `${p}.fixed-poll`,
      `${p}.separate-checks`,
      `${p}.activity-steps`,
      ...now(p),
    ]),
    ...GATED_PATHS.flatMap((p) => [`${p}.fixed-poll`, `${p}.separate-checks`, `${p}.activity-steps`, ...now(p)]),
    ...BOUNDED_PATHS.flatMap(now),
    ...ISSUE_43_PATHS.flatMap((p) => (p.includes('.') ? [p] : now(p))),
    ...ISSUE_48_PATHS.flatMap(now),
    ...ISSUE_51_PATHS.flatMap(now),
  ].sort();
  expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(expected);
});
