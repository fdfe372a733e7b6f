import path from 'node:path';
import { recordedHistories } from '../helpers/workflow-histories';

/**
 * Workflow versioning, the inventory: a recorded history of every path (workflow-replay.test.ts replays them, with
 * every other fixture folder). The recorded histories of every promotion path (approved then Healthy, expired, cancelled,
 * degraded) replay against the current workflow code; a change that would break a running promotion fails here.
 * Recorded by promotion-workflow.test.ts with UPDATE_PROMOTION_HISTORIES=1. `*.fixed-poll.json` were recorded before
 * the `promotion-bounded-waits` patch and replay down its unpatched branch; `blocked-30-days.first-run` and
 * `.last-run` are the first and last runs of a promotion Blocked 30 days that continued as new
 * (history-budget-deploys.test.ts).
 */
const DIR = path.join(__dirname, 'fixtures', 'promotion-histories');

it('has a recorded history for every promotion path', () => {
  expect(
    recordedHistories(DIR)
      .map((f) => f.replace(/\.json$/, ''))
      .sort(),
  ).toEqual(
    [
      ...['approved', 'cancelled', 'degraded', 'expired'].flatMap((p) => [p, `${p}.fixed-poll`]),
      'blocked-30-days.first-run',
      'blocked-30-days.last-run',
      'reported-before-noted.fixed-poll',
      'reported-before-noted',
      // Issue 43: a commit outlasting a Git storage outage, before and after the promotion-commit-wait-noted patch.
      'outage-then-committed.details-only',
      'outage-then-committed',
      // Issue 45: waiting 14 days for nothing but an approval, after the promotion-approval-wait patch (no re-check).
      'approval-14-days',
      // Issue 48: two groups linked by dependsOn committed one after another (the promotion-service-order patch).
      'service-order',
      // Issue 51: an approval sent while the evaluation that blocked the promotion was still answering, taken.
      'approved-while-evaluating',
      // Issue 51: a cancel accepted while the evaluation that made a long run continue as new answered, taken.
      'cancelled-at-continue',
    ].sort(),
  );
});
