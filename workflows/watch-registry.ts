import { continueAsNew, proxyActivities, setCurrentDetails, setHandler, sleep } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import {
  watchRegistryStateQuery,
  type PollSummary,
  type WatchRegistryInput,
} from '../src/watch/watch-registry-contract';
import { runIsLong } from './lib/wait-until-clear';

const { pollWatchRegistry } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '5 minutes',
  // The activity heartbeats every second: a worker killed mid-poll is noticed here, not after five minutes.
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes' },
});

/** The wait after `failures` throttled or failed polls in a row: doubling, capped, with full jitter above half. */
export function backoffMs(input: Pick<WatchRegistryInput, 'backoffInitialMs' | 'backoffMaxMs'>, failures: number) {
  const ceiling = Math.min(input.backoffMaxMs, input.backoffInitialMs * 2 ** Math.min(failures - 1, 30));
  // Math.random is deterministic inside a workflow (seeded per run), so replays take the same waits.
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

const line = (s: PollSummary) =>
  `${s.repositories} repositories, ${s.tagListRequests} tag lists (${s.notModified} unchanged), ${s.requests} requests, ` +
  `${s.discoveries} new versions, ${s.released} held updates released` +
  (s.failed.length > 0 ? `; failed: ${s.failed.join('; ')}` : '');

/**
 * Polls one external registry for its watch subscriptions (issue 49, docs/automation.md): one poll per interval for
 * every repository any subscription watches (however many share it). A 429 (its Retry-After as a floor) or a poll
 * with failures waits an exponential, jittered backoff instead of the interval; the next good poll resets it. The
 * registry's deletion ends the workflow. History stays bounded: continue-as-new after `pollsPerRun` polls or when
 * the run grows long, carrying the backoff state.
 */
export async function watchRegistryWorkflow(input: WatchRegistryInput): Promise<void> {
  let failures = input.failures ?? 0;
  let polls = input.polls ?? 0;
  let last: PollSummary | null = null;
  let nextPollAt: number | null = null;
  setHandler(watchRegistryStateQuery, () => ({ polls, last, nextPollAt }));
  for (let run = 0; ; run += 1) {
    if (run >= input.pollsPerRun || runIsLong()) {
      await continueAsNew<typeof watchRegistryWorkflow>({ ...input, failures, polls });
    }
    const summary = await pollWatchRegistry({ organizationId: input.organizationId, registryId: input.registryId });
    if (summary.gone) return;
    polls += 1;
    last = summary;
    let wait = input.intervalMs;
    let why = 'next poll';
    if (summary.throttled || summary.failed.length > 0) {
      failures += 1;
      wait = Math.max(summary.retryAfterMs ?? 0, backoffMs(input, failures));
      why = summary.throttled ? `throttled (429), backoff ${failures}` : `failures, backoff ${failures}`;
    } else failures = 0;
    nextPollAt = Date.now() + wait;
    setCurrentDetails(
      `Registry ${input.name}: poll ${polls}: ${line(summary)}. ${why} at ${new Date(nextPollAt).toISOString()}`,
    );
    await sleep(wait);
  }
}
