import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import * as workflows from '../../workflows';
import { repoRoot } from '../../src/paths';
import { eventually } from '../helpers/net';
import { scaled } from '../helpers/time-scale';
import { bundle, startTimeSkipping } from '../helpers/time-skipping';
import { crashScenes, crashStubs, type WorkflowType } from './worker-crash-scenes';

/**
 * Crash tests of the workflow types the integration crash tests do not cover (issue 45): a worker stops in the middle
 * of a run (its activity in flight, or the run parked on a timer) and a new worker, with no cache of the run, replays
 * it and finishes it (or brings it to rest, for the runs that never end by themselves); every effect (a stub activity
 * that completed) happened exactly once. The scenes are in ./worker-crash-scenes.ts; the last test checks that every
 * workflow type the worker registers has a crash test, here or elsewhere.
 */

/** Workflow types crash-tested elsewhere (a worker or API process killed mid-run), with the test that does it. */
const CRASH_TESTED_ELSEWHERE: Partial<Record<WorkflowType, string>> = {
  proofWorkflow: 'test/integration/temporal/worker-crash.test.ts',
  gitCommitWorkflow: 'test/integration/gitops/commit-crash.test.ts',
  releaseWorkflow: 'test/integration/gitops/commit-crash.test.ts',
  promotionWorkflow: 'test/integration/promotions/promotion-crash.test.ts',
  rolloutWorkflow: 'test/integration/rollouts/rollout-crash.test.ts',
  watchRegistryWorkflow: 'test/integration/watch/watch-crash.test.ts',
};
/** Workflow types with no middle to stop in, and why. */
const NO_MIDDLE: Partial<Record<WorkflowType, string>> = {
  pingWorkflow: 'returns in its first workflow task: no activity, no timer, no effect',
};

const { EventType } = temporal.api.enums.v1;
/** Effects that completed, in order; and the activities started (attempts), by worker. */
const effects: string[] = [];
const attempts: string[] = [];
/** While set, the activity of this effect hangs on the first worker until the worker stops (a crash in it). */
let hangOn: string | null = null;

function stubs(worker: 'first' | 'second') {
  return crashStubs(async (label, effect) => {
    attempts.push(`${worker} ${label ?? 'read'}`);
    if (worker === 'first' && label !== null && hangOn === label) {
      await Context.current().cancelled;
    }
    if (label !== null) effects.push(label);
    return effect();
  });
}

/**
 * The scene's own time-skipping server: started for each scene and stopped after it, so that no scene meets what an
 * earlier one left in the server (its runs, its time-skipping lock count: temporalio/sdk-java#2246), about 0.3 s each.
 */
let env: TestWorkflowEnvironment;

async function startWorker(taskQueue: string, which: 'first' | 'second') {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await bundle(require.resolve('../../workflows')),
    activities: stubs(which),
    shutdownGraceTime: '100 ms',
    // No sticky queue: the time-skipping server would hold the run's next task for the stopped worker's sticky queue.
    maxCachedWorkflows: 0,
  });
  return { worker, running: worker.run() };
}

/** What the run looked like at the last probe of a wait, for the message of a wait that ran out. */
let lastSeen = 'nothing read yet';

/** The run waits (on a timer, a signal or an Update): no workflow task after its last one, no activity in flight. */
async function atRest(handle: WorkflowHandle): Promise<boolean> {
  const types = (await handle.fetchHistory()).events?.map((e) => e.eventType ?? 0) ?? [];
  const completed = types.lastIndexOf(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  const pending = types
    .slice(completed + 1)
    .some(
      (t) => t === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED || t === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    );
  const activities = (await handle.describe()).raw.pendingActivities ?? [];
  lastSeen = `history ${types.map((t) => EventType[t]?.replace('EVENT_TYPE_', '')).join(' ')}; pending activities ${
    activities
      .map((a) => `${a.activityType?.name} attempt ${a.attempt} ${a.state} ${a.lastFailure?.message ?? ''}`)
      .join(', ') || 'none'
  }; effects ${effects.join(' ')}; attempts ${attempts.join(', ')}`;
  return completed >= 0 && !pending && activities.length === 0;
}

/** The run's result, or after `ms` (scaled) an error that says what the run looked like then. */
async function resultWithin(handle: WorkflowHandle, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      atRest(handle).then(
        () => reject(new Error(`no result in ${scaled(ms)} ms (${lastSeen})`)),
        (err: unknown) => reject(new Error(`no result in ${scaled(ms)} ms (reading the run: ${String(err)})`)),
      );
    }, scaled(ms));
  });
  try {
    return await Promise.race([handle.result(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `wait` unless `worker` stops first: a worker that fails (a fatal error, a shutdown that cannot end) fails the scene
 * at once with its own error instead of leaving the wait to run out.
 */
function whileRunning<T>(worker: { running: Promise<void> }, wait: Promise<T>): Promise<T> {
  const stopped = worker.running.then(() => {
    throw new Error('the second worker stopped before the scene ended');
  });
  stopped.catch(() => undefined);
  return Promise.race([wait, stopped]);
}

const scenes = crashScenes(
  () => env,
  () => effects,
);

/** Moves the run on from the middle with the second worker up, to its result or, for a run that never ends, to rest. */
async function finish(scene: (typeof scenes)[number], handle: WorkflowHandle): Promise<void> {
  await scene.then?.(handle);
  if ('result' in scene) {
    expect(await resultWithin(handle, 30_000)).toEqual(scene.result);
    return;
  }
  await eventually(
    // The run read first, so that the message of a wait that runs out shows its last state.
    async () => (await atRest(handle)) && effects.join() === scene.effects.join(),
    20_000,
    () => `the run at rest (${lastSeen})`,
  );
  if (scene.atRest) expect(await scene.atRest(handle)).toEqual(scene.rest);
  await handle.terminate('crash test done');
}

it.each(scenes)(
  '$name',
  async (scene) => {
    effects.length = 0;
    attempts.length = 0;
    lastSeen = 'nothing read yet';
    hangOn = scene.hangOn;
    env = await startTimeSkipping();
    try {
      const taskQueue = `crash-${randomUUID()}`;
      const first = await startWorker(taskQueue, 'first');
      const handle = await scene.start(taskQueue);
      await eventually(
        async () => {
          const rest = await atRest(handle);
          const inside = scene.hangOn === null ? rest : attempts.includes(`first ${scene.hangOn}`);
          return inside && effects.join() === scene.parked.join();
        },
        20_000,
        () => `the run in the middle (${lastSeen})`,
      );
      first.worker.shutdown();
      await first.running;
      expect((await handle.describe()).status.name).toBe('RUNNING');

      const second = await startWorker(taskQueue, 'second');
      try {
        await whileRunning(second, finish(scene, handle));
      } finally {
        second.worker.shutdown();
        await second.running;
      }
    } finally {
      await env.teardown();
    }
    expect(effects).toEqual(scene.effects);
    // The second worker finished it: it ran the rest (or retried the attempt the first one never finished).
    expect(attempts.filter((a) => a.startsWith('second')).length).toBeGreaterThan(0);
  },
  60_000,
);

it('covers every workflow type the worker registers: a scene here, a crash test elsewhere, or no middle to stop in', () => {
  const covered = new Map<string, string>();
  for (const scene of scenes) covered.set(scene.type, 'test/workflows/worker-crash-families.test.ts');
  for (const [type, file] of Object.entries(CRASH_TESTED_ELSEWHERE)) {
    expect(fs.existsSync(path.join(repoRoot(), file))).toBe(true);
    covered.set(type, file);
  }
  for (const type of Object.keys(NO_MIDDLE)) covered.set(type, 'no middle');
  const registered = Object.keys(workflows).filter((name) => typeof workflows[name as WorkflowType] === 'function');
  expect([...covered.keys()].sort()).toEqual(registered.sort());
});
