/** Every workflow type the platform registers; the worker bundles this file. */
export { proofWorkflow } from './proof';
export { invitationWorkflow } from './invitation';
export { gitCommitWorkflow, gitPushWorkflow } from './git-commit';
export { clusterHeartbeatWorkflow } from './cluster-heartbeat';
