import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { createActivities } from '../../activities';
import {
  watchRegistryStateQuery,
  type PollSummary,
  type WatchRegistryInput,
} from '../../src/watch/watch-registry-contract';
import { watchRegistryWorkflow } from '../../workflows/watch-registry';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { historiesOf } from '../helpers/workflow-histories';

const { keep } = historiesOf('watch-registry');

/**
 * The poll workflow of an external registry on the time-skipping server: minutes of intervals and backoffs take
 * milliseconds. The poll activity is a stub typed from the real one, answering a script per registry and recording
 * when (server time) each poll ran.
 */
const MINUTE = 60_000;
const ok: PollSummary = {
  gone: false,
  repositories: 10,
  tagListRequests: 10,
  requests: 12,
  notModified: 8,
  discoveries: 1,
  released: 0,
  throttled: false,
  retryAfterMs: null,
  failed: [],
  cpuMs: 3,
};
const throttled = (retryAfterMs: number | null): PollSummary => ({
  ...ok,
  throttled: true,
  retryAfterMs,
  discoveries: 0,
});
const gone: PollSummary = { ...ok, gone: true };

const scripts = new Map<string, PollSummary[]>();
const polledAt = new Map<string, number[]>();

type Activities = Pick<ReturnType<typeof createActivities>, 'pollWatchRegistry'>;
const activities: Activities = {
  async pollWatchRegistry({ registryId }) {
    polledAt.set(registryId, [
      ...(polledAt.get(registryId) ?? []),
      Context.current().info.currentAttemptScheduledTimestampMs,
    ]);
    return scripts.get(registryId)?.shift() ?? gone;
  },
};
const ctx = timeSkippingWorker(require.resolve('../../workflows'), activities);

function start(script: PollSummary[], extra: Partial<WatchRegistryInput> = {}) {
  const registryId = randomUUID();
  scripts.set(registryId, script);
  const input: WatchRegistryInput = {
    organizationId: randomUUID(),
    registryId,
    name: 'hub',
    intervalMs: 5 * MINUTE,
    backoffInitialMs: MINUTE,
    backoffMaxMs: 10 * MINUTE,
    pollsPerRun: 100,
    ...extra,
  };
  const handle = ctx.env.client.workflow.start(watchRegistryWorkflow, {
    taskQueue: ctx.taskQueue,
    workflowId: `watch-registry-${registryId}`,
    args: [input],
  });
  return { registryId, handle };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('watch registry workflow on the time-skipping server', () => {
  it('polls every interval, backs off on 429 (Retry-After as a floor, doubling, jittered), resets, ends when gone', async () => {
    const { registryId, handle } = start([ok, throttled(2 * MINUTE), throttled(null), throttled(null), ok, ok]);
    const h = await handle;
    await h.result();
    const g = gaps(polledAt.get(registryId)!);
    expect(g).toHaveLength(6);
    // ok -> the interval.
    expect(g[0]).toBeGreaterThanOrEqual(5 * MINUTE);
    expect(g[0]).toBeLessThan(5 * MINUTE + 5_000);
    // 429 with Retry-After 2 min: at least that (the first backoff is 30-60 s).
    expect(g[1]).toBeGreaterThanOrEqual(2 * MINUTE);
    expect(g[1]).toBeLessThan(2 * MINUTE + 5_000);
    // Then 2 min, then 4 min ceilings, each jittered in its upper half.
    expect(g[2]).toBeGreaterThanOrEqual(MINUTE);
    expect(g[2]).toBeLessThan(2 * MINUTE + 5_000);
    expect(g[3]).toBeGreaterThanOrEqual(2 * MINUTE);
    expect(g[3]).toBeLessThan(4 * MINUTE + 5_000);
    // A good poll resets: the interval again.
    expect(g[4]).toBeGreaterThanOrEqual(5 * MINUTE);
    expect(g[4]).toBeLessThan(5 * MINUTE + 5_000);
    expect((await h.describe()).status.name).toBe('COMPLETED');
    await keep('throttled-then-gone', h);
  });

  it('continues as new after its polls per run, carrying the count and the backoff', async () => {
    const { registryId, handle } = start([ok, ok, throttled(null), ok, ok], { pollsPerRun: 2 });
    const h = await handle;
    const firstRun = h.firstExecutionRunId;
    await h.result();
    expect(polledAt.get(registryId)).toHaveLength(6);
    const latest = ctx.env.client.workflow.getHandle(h.workflowId);
    expect((await latest.describe()).runId).not.toBe(firstRun);
    await keep('continued-as-new', ctx.env.client.workflow.getHandle(h.workflowId, firstRun));
  });

  it('answers its state while it waits', async () => {
    const { handle } = start([ok, ok]);
    const h = await handle;
    await ctx.env.sleep(MINUTE);
    const state = await h.query(watchRegistryStateQuery);
    expect(state.polls).toBe(1);
    expect(state.last).toEqual(ok);
    expect(state.nextPollAt).toEqual(expect.any(Number));
    await h.terminate('test over');
  });
});
