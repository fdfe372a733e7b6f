import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { createActivities } from '../../activities';
import type { GitActivities } from '../../activities/git';
import { breakGlassWorkflowId } from '../../src/break-glass/break-glass-workflow-contract';
import { breakGlassWorkflow } from '../../workflows/break-glass';
import { gitPushWorkflow, repositoryMaintenanceWorkflow } from '../../workflows/git-commit';
import { eventually } from '../helpers/net';
import { bundle, startTimeSkipping } from '../helpers/time-skipping';

/**
 * Crash tests of the workflow types the integration crash tests do not cover (issue 45): a worker stops in the middle
 * of a run (its activity in flight, or the run parked on a timer) and a new worker, with no cache of the run, replays
 * it and finishes it; every effect (a stub activity that completed) happened exactly once.
 */
type Activities = Pick<ReturnType<typeof createActivities>, 'openBreakGlass' | 'closeBreakGlass'> &
  Pick<GitActivities, 'pushToRemote' | 'maintainRepositories'>;

const DAY = 24 * 3_600_000;
const SHA = 'a'.repeat(40);
/** Effects that completed, in order; and the activity types started (attempts), by worker. */
const effects: string[] = [];
const attempts: string[] = [];
/** While set, this activity type hangs on the first worker until the worker stops (a crash in the middle of it). */
let hangOn: string | null = null;

function stubs(worker: 'first' | 'second'): Activities {
  /** Runs `effect` as one activity attempt: the first worker hangs in `hangOn` until it is stopped. */
  const attempt = async <T>(type: string, effect: () => T): Promise<T> => {
    attempts.push(`${worker} ${type}`);
    if (worker === 'first' && hangOn === type) {
      await Context.current().cancelled;
    }
    effects.push(type);
    return effect();
  };
  return {
    openBreakGlass: (i) =>
      attempt('openBreakGlass', () => ({ sessionId: i.sessionId, openedAt: i.openedAt, endsAt: i.endsAt })),
    closeBreakGlass: () => attempt('closeBreakGlass', () => '2026-11-30T00:00:00.000Z'),
    pushToRemote: () => attempt('pushToRemote', () => ({ status: 'pushed' as const, error: null })),
    maintainRepositories: () => attempt('maintainRepositories', () => 1),
  };
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

interface Scene {
  name: string;
  /** Starts the workflow on `taskQueue`. */
  start(taskQueue: string): Promise<WorkflowHandle>;
  /** The activity the first worker is in when it stops, or null: it stops once `parked` holds. */
  hangOn: string | null;
  /** The run is in the middle: the effects so far. */
  parked: string[];
  /** What moves the run on once the second worker is up (a timer's time). */
  then?: () => Promise<void>;
  /** Every effect of the whole run, once each. */
  effects: string[];
  result: unknown;
}

const scenes: Scene[] = [
  {
    name: 'break-glass: parked on its one-day timer, closed by the new worker when it fires',
    start: (taskQueue) => {
      const sessionId = randomUUID();
      return env.client.workflow.start(breakGlassWorkflow, {
        taskQueue,
        workflowId: breakGlassWorkflowId(sessionId),
        args: [
          {
            sessionId,
            organizationId: 'org-1',
            userId: 'user-ann',
            actor: { userId: 'user-ann', actorType: 'user', actor: 'ann', requestId: null },
            justification: 'prod is down',
            durationMinutes: DAY / 60_000,
            durationMs: DAY,
            scope: { projectIds: ['project-1'], environments: ['prod'] },
          },
        ],
      });
    },
    hangOn: null,
    parked: ['openBreakGlass'],
    then: () => env.sleep(DAY),
    effects: ['openBreakGlass', 'closeBreakGlass'],
    result: { status: 'closed' },
  },
  {
    name: 'push: stopped in the middle of the push, pushed once by the new worker',
    start: (taskQueue) =>
      env.client.workflow.start(gitPushWorkflow, {
        taskQueue,
        workflowId: `git-push-crash-${randomUUID()}`,
        args: [{ request: { organizationId: 'org-1', projectId: 'project-1', sha: SHA }, taskQueue }],
      }),
    hangOn: 'pushToRemote',
    parked: [],
    effects: ['pushToRemote'],
    result: { status: 'pushed', error: null },
  },
  {
    name: 'maintenance: stopped in the middle of git gc, maintained once by the new worker',
    start: (taskQueue) =>
      env.client.workflow.start(repositoryMaintenanceWorkflow, {
        taskQueue,
        workflowId: `git-maintenance-crash-${randomUUID()}`,
        args: [{ taskQueue, target: { organizationId: 'org-1', projectId: 'project-1' } }],
      }),
    hangOn: 'maintainRepositories',
    parked: [],
    effects: ['maintainRepositories'],
    result: 1,
  },
];

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
        const inside = scene.hangOn === null || attempts.includes(`first ${scene.hangOn}`);
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
      await scene.then?.();
      expect(await handle.result()).toEqual(scene.result);
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
