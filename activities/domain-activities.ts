import type { Services } from '../src/runtime/services';
import { createBreakGlassActivities } from './break-glass';
import { createClusterHeartbeatActivities } from './cluster-heartbeat';
import { createProofActivities } from './proof';
import { createInvitationActivities } from './invitation';
import { createNotificationActivities } from './notifications';
import { createEscalationActivities } from './escalation';
import { createPromotionActivities } from './promotion';
import { createReleaseActivities } from './release';
import { createImageUpdateActivities } from './image-updates';
import { createVerificationActivities } from './verification';
import { createRolloutActivities } from './rollout';
import { createWatchRegistryActivities } from './watch-registry';

/**
 * The activities of the `platform` queue, by the module (src/runtime/modules.ts) whose services they call: the
 * activity layer wires them here, so no domain imports activities/. A name that is not a module's fails
 * test/unit/architecture/domain-modules.test.ts.
 */
export const DOMAIN_ACTIVITIES = {
  'break-glass': createBreakGlassActivities,
  clusters: createClusterHeartbeatActivities,
  diagnostics: createProofActivities,
  invitations: createInvitationActivities,
  notifications: (deps: Services) => ({ ...createNotificationActivities(deps), ...createEscalationActivities(deps) }),
  promotions: createPromotionActivities,
  releases: createReleaseActivities,
  webhooks: createImageUpdateActivities,
  watch: (deps: Services) => createWatchRegistryActivities({ poller: deps.watchPoller }),
  rollouts: createRolloutActivities,
  verification: (deps: Services) =>
    createVerificationActivities({
      metricSources: deps.metricSources,
      outbound: deps.config.notifications.outbound,
      limits: deps.config.notifications.limits,
    }),
};
