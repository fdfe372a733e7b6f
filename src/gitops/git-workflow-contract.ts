/**
 * The workflows of the commit path (workflows/git-commit.ts) by their registered types and business ids, for the code
 * that starts them outside a workflow. Imported by workflow code, so it stays free of Node built-ins and I/O.
 */
import type { CommitOutcome, CommitRequest } from './commit-path';
import type { PushOutcome, PushRequest } from './remote-push';
import type { MaintenanceTarget } from './repository-maintenance';
import { workflowType } from '../temporal/workflow-type';

/** The push of one commit: one workflow whoever starts it (a workflow after its commit, or an API process). */
export const pushWorkflowId = (projectId: string, sha: string) => `git-push-${projectId}-${sha}`;
/** A repository's maintenance after a write: one at a time per repository. */
export const maintenanceWorkflowId = (projectId: string) => `git-maintenance-${projectId}`;

export const gitCommitWorkflowType =
  workflowType<(input: { request: CommitRequest; taskQueue: string }) => Promise<CommitOutcome>>()('gitCommitWorkflow');
export const gitPushWorkflowType =
  workflowType<(input: { request: PushRequest; taskQueue: string }) => Promise<PushOutcome>>()('gitPushWorkflow');
export const repositoryMaintenanceWorkflowType = workflowType<
  (input: { taskQueue: string; target: MaintenanceTarget | null }) => Promise<number>
>()('repositoryMaintenanceWorkflow');
