import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { bundle } from './time-skipping';

/**
 * Recorded workflow histories for replay tests. A workflow test keeps each path's history in `dir` only when the
 * environment variable `updateVariable` is 1 (the fixtures are what older code recorded); the replay test runs them
 * all against the current workflow code.
 */
export function historyKeeper(dir: string, updateVariable: string) {
  return async function keep(name: string, handle: WorkflowHandle): Promise<void> {
    if (process.env[updateVariable] !== '1') return;
    const history = await handle.fetchHistory();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.json`), historyToJSON(history));
  };
}

/** The recorded history files of `dir` (names with `.json`). */
export function recordedHistories(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
}

/** Replays every recorded history of `dir` against the current workflows bundle; returns the failures. */
export async function replayFailures(dir: string): Promise<string[]> {
  installTemporalRuntime();
  const workflowBundle = await bundle(require.resolve('../../workflows'));
  const histories = recordedHistories(dir).map((file) => ({
    workflowId: file,
    history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))),
  }));
  const failures: string[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle }, histories)) {
    if (result.error) failures.push(`${result.workflowId}: ${String(result.error)}`);
  }
  return failures;
}

/** Where every workflow type's recorded histories live: `test/workflows/fixtures/<name>-histories/`. */
export const FIXTURES_DIR = path.join(__dirname, '..', 'workflows', 'fixtures');

/** The history folder of one workflow family (e.g. `digest`), and its keeper (UPDATE_WORKFLOW_HISTORIES=1). */
export function historiesOf(family: string) {
  const dir = path.join(FIXTURES_DIR, `${family}-histories`);
  return { dir, keep: historyKeeper(dir, 'UPDATE_WORKFLOW_HISTORIES') };
}

/** The workflow type of every recorded history under FIXTURES_DIR (read from its start event). */
export function recordedWorkflowTypes(): Set<string> {
  const types = new Set<string>();
  for (const family of fs.readdirSync(FIXTURES_DIR).filter((d) => d.endsWith('-histories'))) {
    const dir = path.join(FIXTURES_DIR, family);
    for (const file of recordedHistories(dir)) {
      const history = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
        events?: { workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } } }[];
      };
      const name = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
      if (name) types.add(name);
    }
  }
  return types;
}

/** Every history file under FIXTURES_DIR (its path). */
function everyHistoryFile(): string[] {
  return fs
    .readdirSync(FIXTURES_DIR)
    .filter((d) => d.endsWith('-histories'))
    .flatMap((family) =>
      recordedHistories(path.join(FIXTURES_DIR, family)).map((f) => path.join(FIXTURES_DIR, family, f)),
    );
}

interface RecordedEvent {
  markerRecordedEventAttributes?: { details?: Record<string, { payloads?: { data?: string }[] }> };
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
}

/**
 * What the recorded histories exercise: the patch ids their markers carry (`patched()` taken) and the activity types
 * they schedule, as activities or as local activities, per history file.
 */
export function recordedSteps(): { file: string; patches: Set<string>; activities: Set<string> }[] {
  return everyHistoryFile().map((file) => {
    const { events = [] } = JSON.parse(fs.readFileSync(file, 'utf8')) as { events?: RecordedEvent[] };
    const patches = new Set<string>();
    const activities = new Set<string>();
    const decode = (data: string | undefined) => JSON.parse(Buffer.from(data ?? '', 'base64').toString('utf8'));
    for (const event of events) {
      const details = event.markerRecordedEventAttributes?.details ?? {};
      for (const payload of details['patch-data']?.payloads ?? [])
        patches.add((decode(payload.data) as { id: string }).id);
      for (const payload of details.data?.payloads ?? []) {
        activities.add((decode(payload.data) as { activity_type: string }).activity_type);
      }
      const scheduled = event.activityTaskScheduledEventAttributes?.activityType?.name;
      if (scheduled) activities.add(scheduled);
    }
    return { file: path.relative(FIXTURES_DIR, file), patches, activities };
  });
}

/**
 * The patch ids the workflow code takes (`patched('id')` or `deprecatePatch('id')`, or `patched(NAME)` with `const NAME = 'id'` in the same
 * file), per file of `dir`.
 */
export function patchIdsOf(dir: string): { file: string; id: string }[] {
  const ids: { file: string; id: string }[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    const constants = new Map([...source.matchAll(/const (\w+) = '([^']+)'/g)].map((m) => [m[1]!, m[2]!]));
    for (const [, arg] of source.matchAll(/(?:patched|deprecatePatch)\(([^)]*)\)/g)) {
      const literal = /^'([^']+)'$/.exec(arg!.trim());
      const id = literal ? literal[1] : constants.get(arg!.trim());
      if (!id) throw new Error(`${file}: cannot resolve the patch id of patched(${arg})`);
      ids.push({ file, id });
    }
  }
  return ids;
}
