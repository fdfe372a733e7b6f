/**
 * Every workflow type the platform registers; the worker bundles this file. Generated from the domains by
 * `npm run build:workflow-index` from the modules' `workflows` (src/runtime/modules.ts): do not edit.
 */
export { pingWorkflow, proofWorkflow } from './proof';
export { invitationWorkflow } from './invitation';
export { gitCommitWorkflow, gitPushWorkflow, repositoryMaintenanceWorkflow } from './git-commit';
export { releaseWorkflow } from './release';
export { promotionWorkflow } from './promotion';
export { notificationDispatchWorkflow } from './notification-dispatch';
export { escalationIncidentWorkflow } from './escalation-incident';
export { notificationDigestWorkflow } from './notification-digest';
export { clusterHeartbeatWorkflow } from './cluster-heartbeat';
export { breakGlassWorkflow } from './break-glass';
export { imageUpdatesWorkflow } from './image-updates';
export { watchRegistryWorkflow } from './watch-registry';
export { rolloutWorkflow } from './rollout';
