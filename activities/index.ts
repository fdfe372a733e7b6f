import { createBreakGlassActivities, type BreakGlassActivityDeps } from './break-glass';
import { createClusterHeartbeatActivities, type ClusterHeartbeatActivityDeps } from './cluster-heartbeat';
import { createImageUpdateActivities, type ImageUpdateActivityDeps } from './image-updates';
import { createInvitationActivities, type InvitationActivityDeps } from './invitation';
import { createEscalationActivities, type EscalationActivityDeps } from './escalation';
import { createNotificationActivities, type NotificationActivityDeps } from './notifications';
import { createPromotionActivities, type PromotionActivityDeps } from './promotion';
import { createProofActivities, type ProofActivityDeps } from './proof';
import { createReleaseActivities, type ReleaseActivityDeps } from './release';

/**
 * What the `platform` queue's activities use, built once by the composition root (src/runtime/services.ts): each
 * creator takes only its own slice.
 */
export type ActivityDeps = ProofActivityDeps &
  InvitationActivityDeps &
  ReleaseActivityDeps &
  PromotionActivityDeps &
  NotificationActivityDeps &
  EscalationActivityDeps &
  ClusterHeartbeatActivityDeps &
  BreakGlassActivityDeps &
  ImageUpdateActivityDeps;

/** Activities are built once per worker from injected dependencies (knex, audit, git, mail). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createProofActivities(deps),
    ...createInvitationActivities(deps),
    ...createReleaseActivities(deps),
    ...createPromotionActivities(deps),
    ...createNotificationActivities(deps),
    ...createEscalationActivities(deps),
    ...createClusterHeartbeatActivities(deps),
    ...createBreakGlassActivities(deps),
    ...createImageUpdateActivities(deps),
  };
}
