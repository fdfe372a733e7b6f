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

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, 60_000);
afterAll(() => env?.teardown());

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

/** The run waits (on a timer, a signal or an Update): no workflow task after its last one, no activity in flight. */
async function atRest(handle: WorkflowHandle): Promise<boolean> {
  const types = (await handle.fetchHistory()).events?.map((e) => e.eventType) ?? [];
  const completed = types.lastIndexOf(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  const pending = types
    .slice(completed + 1)
    .some(
      (t) => t === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED || t === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    );
  const described = await handle.describe();
  return completed >= 0 && !pending && (described.raw.pendingActivities ?? []).length === 0;
}

const scenes = crashScenes(
  () => env,
  () => effects,
);

it.each(scenes)(
  '$name',
  async (scene) => {
    effects.length = 0;
    attempts.length = 0;
    hangOn = scene.hangOn;
    const taskQueue = `crash-${randomUUID()}`;
    const first = await startWorker(taskQueue, 'first');
    const handle = await scene.start(taskQueue);
    await eventually(
      async () => {
        const inside = scene.hangOn === null ? await atRest(handle) : attempts.includes(`first ${scene.hangOn}`);
        return inside && effects.join() === scene.parked.join();
      },
      20_000,
      'the run in the middle',
    );
    first.worker.shutdown();
    await first.running;
    expect((await handle.describe()).status.name).toBe('RUNNING');

    const second = await startWorker(taskQueue, 'second');
    try {
      await scene.then?.(handle);
      if ('result' in scene) {
        expect(await handle.result()).toEqual(scene.result);
      } else {
        await eventually(
          async () => effects.join() === scene.effects.join() && (await atRest(handle)),
          20_000,
          'the run at rest',
        );
        if (scene.atRest) expect(await scene.atRest(handle)).toEqual(scene.rest);
        await handle.terminate('crash test done');
      }
    } finally {
      second.worker.shutdown();
      await second.running;
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
