import * as workflows from '../../workflows';
import fs from 'node:fs';
import path from 'node:path';
import {
  FIXTURES_DIR,
  historiesOf,
  patchIdsOf,
  recordedSteps,
  recordedHistories,
  recordedWorkflowTypes,
  replayFailures,
} from '../helpers/workflow-histories';

/**
 * Workflow versioning for every workflow type: the recorded histories of each family replay against the current
 * workflow code (release, promotion and break-glass have their own replay tests beside their workflow tests), and
 * every workflow type exported by workflows/ has at least one recorded history. A change that would break a running
 * workflow fails here; guard it with `patched()`. Re-recording: docs/workflows.md.
 */
/** Families replayed by their own test, beside their workflow test; every other fixture folder is replayed here. */
const OWN_REPLAY_TESTS = ['release', 'promotion', 'break-glass'];
const FAMILIES = fs
  .readdirSync(FIXTURES_DIR)
  .filter((folder) => folder.endsWith('-histories'))
  .map((folder) => folder.slice(0, -'-histories'.length))
  .filter((family) => !OWN_REPLAY_TESTS.includes(family));

it('replays every fixture folder: here, or in the replay test of its own family', () => {
  // A new folder is replayed here by being there; one named as replayed elsewhere must have that test.
  expect(FAMILIES.length).toBeGreaterThanOrEqual(6);
  for (const family of OWN_REPLAY_TESTS) {
    expect(fs.existsSync(path.join(__dirname, `${family}-replay.test.ts`))).toBe(true);
  }
});

it('has a recorded history for every workflow type exported by workflows/', () => {
  const recorded = recordedWorkflowTypes();
  expect(Object.keys(workflows).filter((type) => !recorded.has(type))).toEqual([]);
});

it('has a recorded history down the patched branch of every patch the workflow code takes', () => {
  // A patch whose branch no history took is replayed only down its old branch: the new path is never checked.
  const ids = patchIdsOf(path.join(__dirname, '..', '..', 'workflows'));
  expect(ids.length).toBeGreaterThanOrEqual(15);
  const recorded = new Set(recordedSteps().flatMap((h) => [...h.patches]));
  expect(ids.filter(({ id }) => !recorded.has(id))).toEqual([]);
});

it('has recorded histories of a commit outlasting an outage, in every workflow that commits that way (issue 43)', () => {
  const steps = recordedSteps();
  // The first attempts failed, the patient commit activity ran on the git queue (scheduled, not a local activity).
  const outlasting = (file: string, commit: string) =>
    steps.some((h) => h.file === file && h.patches.has('commit-outlasts-outages') && h.activities.has(commit));
  expect(outlasting('release-histories/outage-then-committed.json', 'commitToRepository')).toBe(true);
  expect(outlasting('release-histories/outage-then-committed.details-only.json', 'commitToRepository')).toBe(true);
  expect(outlasting('short-histories/git-commit-outage.json', 'commitToRepository')).toBe(true);
  expect(outlasting('promotion-histories/outage-then-committed.json', 'commitToRepository')).toBe(true);
  expect(outlasting('promotion-histories/outage-then-committed.details-only.json', 'commitToRepository')).toBe(true);
  expect(outlasting('image-updates-histories/image-updates-outage.json', 'commitImageRequests')).toBe(true);
  expect(outlasting('image-updates-histories/image-updates-outage.unnoted.json', 'commitImageRequests')).toBe(true);
  // After the patches that put the wait on the rows: the note's activity ran (before them: nothing but the details).
  const noted = (file: string, activity: string) =>
    steps.find((h) => h.file === file)?.activities.has(activity) ?? false;
  expect(noted('release-histories/outage-then-committed.json', 'noteReleaseCommitWait')).toBe(true);
  expect(noted('release-histories/outage-then-committed.details-only.json', 'noteReleaseCommitWait')).toBe(false);
  expect(noted('promotion-histories/outage-then-committed.json', 'notePromotionCommitWait')).toBe(true);
  expect(noted('promotion-histories/outage-then-committed.details-only.json', 'notePromotionCommitWait')).toBe(false);
  expect(noted('image-updates-histories/image-updates-outage.json', 'noteImageRequestsWaiting')).toBe(true);
  expect(noted('image-updates-histories/image-updates-outage.unnoted.json', 'noteImageRequestsWaiting')).toBe(false);
});

it.each(FAMILIES)(
  'replays every recorded %s history against the current workflow code',
  async (family) => {
    const { dir } = historiesOf(family);
    expect(recordedHistories(dir).length).toBeGreaterThan(0);
    expect(await replayFailures(dir)).toEqual([]);
  },
  120_000,
);
