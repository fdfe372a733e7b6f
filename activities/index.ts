import { createClusterHeartbeatActivities, type ClusterHeartbeatActivityDeps } from './cluster-heartbeat';
import { createInvitationActivities, type InvitationActivityDeps } from './invitation';
import { createProofActivities, type ProofActivityDeps } from './proof';

/**
 * What the `platform` queue's activities use, built once by the composition root (src/runtime/services.ts): each
 * creator takes only its own slice.
 */
export type ActivityDeps = ProofActivityDeps & InvitationActivityDeps & ClusterHeartbeatActivityDeps;

/** Activities are built once per worker from injected dependencies (knex, audit, git, mail). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createProofActivities(deps),
    ...createInvitationActivities(deps),
    ...createClusterHeartbeatActivities(deps),
  };
}
