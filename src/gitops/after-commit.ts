import type { WorkflowStarter } from '../temporal/start-workflow';
import {
  gitPushWorkflowType,
  maintenanceWorkflowId,
  pushWorkflowId,
  repositoryMaintenanceWorkflowType,
} from './git-workflow-contract';
import type { CommitOutcome } from './commit-path';

/**
 * What follows a commit made in a request's own process (a direct image update, generate or file write), each in a
 * workflow of its own, as after a workflow's commit (workflows/git-commit.ts): the push to the external remote and the
 * repository's maintenance when it is due. Started without holding the answer (issue 46: a generate's answer waited a
 * Temporal round trip for its maintenance): one that cannot start now starts with the next commit or the maintenance
 * schedule's turn, so a failure is only logged (`warn`).
 */
export function followCommit(
  workflows: Pick<WorkflowStarter, 'start'>,
  taskQueue: string,
  target: { organizationId: string; projectId: string },
  outcome: CommitOutcome,
  warn: (err: string) => void,
): void {
  void startAfterCommit(workflows, taskQueue, target, outcome).catch((err: unknown) =>
    warn(err instanceof Error ? err.message : String(err)),
  );
}

async function startAfterCommit(
  workflows: Pick<WorkflowStarter, 'start'>,
  taskQueue: string,
  target: { organizationId: string; projectId: string },
  outcome: CommitOutcome,
): Promise<void> {
  if (outcome.sha && outcome.remote) {
    await workflows.start(gitPushWorkflowType, {
      workflowId: pushWorkflowId(target.projectId, outcome.sha),
      args: [{ request: { ...target, sha: outcome.sha }, taskQueue }],
      labels: target,
      summary: 'push to the external remote',
    });
  }
  if (outcome.maintenance) {
    await workflows.start(repositoryMaintenanceWorkflowType, {
      workflowId: maintenanceWorkflowId(target.projectId),
      args: [{ taskQueue, target }],
      labels: target,
      summary: 'repository maintenance',
    });
  }
}
