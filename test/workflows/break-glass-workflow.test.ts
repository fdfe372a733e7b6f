import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { createActivities } from '../../activities';
import type { AuditActor } from '../../src/audit/types';
import {
  BREAK_GLASS_FAILURE,
  breakGlassOpenedUpdate,
  breakGlassStateQuery,
  breakGlassWorkflowId,
  closeBreakGlassUpdate,
  type BreakGlassOpened,
} from '../../src/break-glass/break-glass-workflow-contract';
import { breakGlassWorkflow } from '../../workflows/break-glass';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { updateRefusal as refusal } from '../helpers/update-refusal';
import { historyKeeper } from '../helpers/workflow-histories';

/**
 * The break-glass workflow's logic on the time-skipping server with stub activities typed from the real ones: the
 * opening answer, the durable timer that closes a day-long session after its duration (skipped in milliseconds), a
 * close by hand before it, and the two races between them (each ends with exactly one close). Each path's history is
 * kept under test/workflows/fixtures/break-glass-histories (rewritten with UPDATE_BREAK_GLASS_HISTORIES=1) for the
 * replay test, which runs them against the current code.
 */
type BreakGlassActivities = Pick<ReturnType<typeof createActivities>, 'openBreakGlass' | 'closeBreakGlass'>;

const HISTORY_DIR = path.join(__dirname, 'fixtures', 'break-glass-histories');
const DAY = 24 * 3_600_000;
const CLOSED_AT = '2026-11-23T12:00:00.000Z';
const person = (name: string): AuditActor => ({
  userId: `user-${name}`,
  actorType: 'user',
  actor: `${name}@example.test`,
  requestId: null,
});

/** Session rows the stub `openBreakGlass` wrote, by session id. */
const rows = new Map<string, BreakGlassOpened>();
const calls: string[] = [];
/** While set, `closeBreakGlass` is held until it resolves (a close in flight that the other close races). */
let closeHeld: Promise<void> | null = null;

function stubs(): BreakGlassActivities {
  return {
    openBreakGlass: async (i) => {
      calls.push('open');
      const row = { sessionId: i.sessionId, openedAt: i.openedAt, endsAt: i.endsAt };
      rows.set(i.sessionId, row);
      return row;
    },
    closeBreakGlass: async (i) => {
      calls.push(`close ${i.reason} ${i.actor.actor}`);
      await closeHeld;
      return CLOSED_AT;
    },
  };
}

function hold(): () => void {
  let release = () => undefined as void;
  closeHeld = new Promise<void>((resolve) => (release = resolve));
  return () => {
    closeHeld = null;
    release();
  };
}

async function start(durationMs: number) {
  calls.length = 0;
  const sessionId = randomUUID();
  return ts.env.client.workflow.start(breakGlassWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: breakGlassWorkflowId(sessionId),
    args: [
      {
        sessionId,
        organizationId: 'org-1',
        userId: 'user-ann',
        actor: person('ann'),
        justification: 'prod is down and the freeze blocks the fix',
        durationMinutes: durationMs / 60_000,
        durationMs,
        scope: { projectIds: ['project-1'], environments: ['prod'] },
      },
    ],
  });
}

/** Sends a close Update and returns once the workflow has accepted it (its result is awaited later). */
function closeByHand(handle: WorkflowHandle<typeof breakGlassWorkflow>, name: string) {
  return handle.startUpdate(closeBreakGlassUpdate, {
    args: [{ actor: person(name) }],
    waitForStage: WorkflowUpdateStage.ACCEPTED,
  });
}

async function until(what: string, done: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 400; i += 1) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}

/** The durations of the timers the workflow started and how many of them fired. */
async function timers(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  return {
    started: events.flatMap((e) => (e.timerStartedEventAttributes ? [e.timerStartedEventAttributes] : [])),
    fired: events.filter((e) => e.timerFiredEventAttributes).length,
  };
}

/** True once the workflow has run a task after its timer fired (it has seen the end of the duration). */
async function sawTimerFire(handle: WorkflowHandle): Promise<boolean> {
  const events = (await handle.fetchHistory()).events ?? [];
  const fired = events.findIndex((e) => e.timerFiredEventAttributes);
  return fired >= 0 && events.slice(fired).some((e) => e.workflowTaskCompletedEventAttributes);
}

/** Keeps the history of one path for the replay test (only when asked). */
const keep = historyKeeper(HISTORY_DIR, 'UPDATE_BREAK_GLASS_HISTORIES');

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs());

describe('break-glass workflow', () => {
  it('answers the opening with the row it wrote, and its timer closes a day-long session after the day', async () => {
    const handle = await start(DAY);
    const opened = await handle.executeUpdate(breakGlassOpenedUpdate);
    expect(opened).toEqual(rows.get(opened.sessionId));
    expect(Date.parse(opened.endsAt) - Date.parse(opened.openedAt)).toBe(DAY);
    expect(await handle.query(breakGlassStateQuery)).toEqual({ status: 'open', endsAt: opened.endsAt });

    expect(await handle.result()).toEqual({ status: 'closed' });
    const { started, fired } = await timers(handle);
    expect(started).toHaveLength(1);
    expect(tsToMs(started[0]!.startToFireTimeout)).toBeGreaterThan(DAY - 60_000);
    expect(fired).toBe(1);
    expect(calls).toEqual(['open', 'close expired break-glass-workflow']);
    expect(await handle.query(breakGlassStateQuery)).toEqual({ status: 'closed', endsAt: opened.endsAt });
    await keep('expired', handle);
  });

  it('closes by hand before the end, and refuses a second close that came while the first ran', async () => {
    const handle = await start(DAY);
    await handle.executeUpdate(breakGlassOpenedUpdate);
    const release = hold();
    const first = await closeByHand(handle, 'bob');
    await until('the first close runs', () => calls.length === 2);
    const second = await closeByHand(handle, 'cy');
    release();
    expect(await first.result()).toEqual({ status: 'closed', closedAt: CLOSED_AT });
    expect(await refusal(second.result())).toBe(BREAK_GLASS_FAILURE.closed);
    expect(await handle.result()).toEqual({ status: 'closed' });
    expect((await timers(handle)).fired).toBe(0);
    expect(calls).toEqual(['open', 'close closed bob@example.test']);
    await keep('closed-by-hand', handle);
  });

  it('closes once when the timer fires while a close by hand is on its way', async () => {
    // The test server does not skip time while an activity runs: this duration passes in real time.
    const duration = 2_000;
    const handle = await start(duration);
    await handle.executeUpdate(breakGlassOpenedUpdate);
    const release = hold();
    const byHand = await closeByHand(handle, 'bob');
    await until('the close by hand runs', () => calls.length === 2);
    await ts.env.sleep(duration);
    await until('the workflow sees its timer fire', () => sawTimerFire(handle));
    release();
    expect(await byHand.result()).toEqual({ status: 'closed', closedAt: CLOSED_AT });
    expect(await handle.result()).toEqual({ status: 'closed' });
    expect(calls).toEqual(['open', 'close closed bob@example.test']);
    await keep('timer-during-close-by-hand', handle);
  });

  it('closes once when a close by hand comes while the timer is closing the session', async () => {
    const handle = await start(DAY);
    await handle.executeUpdate(breakGlassOpenedUpdate);
    const release = hold();
    await ts.env.sleep(DAY);
    await until('the timer closes', () => calls.length === 2);
    const byHand = await closeByHand(handle, 'bob');
    release();
    expect(await refusal(byHand.result())).toBe(BREAK_GLASS_FAILURE.closed);
    expect(await handle.result()).toEqual({ status: 'closed' });
    expect(calls).toEqual(['open', 'close expired break-glass-workflow']);
    await keep('close-by-hand-during-timer', handle);
  });
});
