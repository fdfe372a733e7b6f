import type { RegistryPoller } from '../src/watch/registry-poller';
import type { PollSummary } from '../src/watch/watch-registry-contract';

/** The activity of the registry poll workflow: one poll, summarised (src/watch/registry-poller.ts). */
export function createWatchRegistryActivities(deps: { poller: RegistryPoller }) {
  return {
    async pollWatchRegistry(input: { organizationId: string; registryId: string }): Promise<PollSummary> {
      return deps.poller.poll(input);
    },
  };
}
