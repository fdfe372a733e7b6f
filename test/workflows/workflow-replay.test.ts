import * as workflows from '../../workflows';
import fs from 'node:fs';
import path from 'node:path';
import {
  FIXTURES_DIR,
  patchIdsOf,
  recordedSteps,
  recordedHistories,
  recordedWorkflowTypes,
  replayFailures,
} from '../helpers/workflow-histories';

/**
 * Workflow versioning for every workflow type: the recorded histories of every fixture folder replay here against the
 * current workflow code (release, promotion and break-glass list their paths in their own *-replay tests), and every
 * workflow type exported by workflows/ has at least one recorded history. A change that would break a running
 * workflow fails here; guard it with `patched()`. Re-recording: docs/workflows.md.
 */
/** Every folder under fixtures/: each one is replayed below, whatever its name. */
const FOLDERS = fs
  .readdirSync(FIXTURES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

it('replays every fixture folder, each named <family>-histories and holding only recorded histories', () => {
  // A folder named otherwise would be missed by the history readers (recordedSteps, recordedWorkflowTypes); a file
  // other than .json would be skipped by the replay without a word.
  expect(FOLDERS.length).toBeGreaterThanOrEqual(11);
  expect(FOLDERS.filter((folder) => !folder.endsWith('-histories'))).toEqual([]);
  for (const folder of FOLDERS) {
    const files = fs.readdirSync(path.join(FIXTURES_DIR, folder));
    expect(files.filter((f) => !f.endsWith('.json')).map((f) => `${folder}/${f}`)).toEqual([]);
    expect(files.length).toBeGreaterThan(0);
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

it('has a retirement schedule for every patch id the workflow code takes (docs/decisions/0011)', () => {
  const decision = fs.readFileSync(
    path.join(__dirname, '..', '..', 'docs', 'decisions', '0011-patch-retirement.md'),
    'utf8',
  );
  const ids = patchIdsOf(path.join(__dirname, '..', '..', 'workflows'));
  expect(ids.filter(({ id }) => !decision.includes(`| \`${id}\``))).toEqual([]);
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

it.each(FOLDERS)(
  'replays every recorded history of %s against the current workflow code',
  async (folder) => {
    const dir = path.join(FIXTURES_DIR, folder);
    expect(recordedHistories(dir).length).toBeGreaterThan(0);
    expect(await replayFailures(dir)).toEqual([]);
  },
  180_000,
);
