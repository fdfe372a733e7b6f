import { Context } from '@temporalio/activity';
import type { RegistryPoller } from '../src/watch/registry-poller';
import type { PollSummary } from '../src/watch/watch-registry-contract';

/** How often a running poll tells Temporal it is alive (the workflow's heartbeat timeout is a few of these). */
const HEARTBEAT_MS = 1000;

/**
 * The activity of the registry poll workflow: one poll, summarised (src/watch/registry-poller.ts). It heartbeats, so a
 * worker killed mid-poll is noticed in seconds and the poll retried elsewhere; a retry records nothing twice (a
 * discovery is unique per tag and digest, a pending one is evaluated by the next poll, updates are keyed).
 */
export function createWatchRegistryActivities(deps: { poller: RegistryPoller }) {
  return {
    async pollWatchRegistry(input: { organizationId: string; registryId: string }): Promise<PollSummary> {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      try {
        return await deps.poller.poll(input);
      } finally {
        clearInterval(beat);
      }
    },
  };
}
