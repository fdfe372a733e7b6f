import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, patched, proxyActivities, proxyLocalActivities, startChild } from '@temporalio/workflow';
import type { CommitOutcome, CommitRequest } from '../src/gitops/commit-path';
import type { PushOutcome, PushRequest } from '../src/gitops/remote-push';
import type { MaintenanceTarget } from '../src/gitops/repository-maintenance';

/** The `git` task queue's activities (activities/git.ts implements them). */
export type GitActivities = {
  commitToRepository(request: CommitRequest): Promise<CommitOutcome>;
  pushToRemote(request: PushRequest): Promise<PushOutcome>;
  maintainRepositories(target: MaintenanceTarget | null): Promise<number>;
};

/** Starts a child workflow that outlives its parent; one already running under the same id is that same work. */
async function startDetached<A extends unknown[]>(
  workflow: (...args: A) => Promise<unknown>,
  workflowId: string,
  args: A,
): Promise<void> {
  try {
    await startChild(workflow, { workflowId, args, parentClosePolicy: ParentClosePolicy.ABANDON });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * One write to a hosted repository: the commit activity on the `git` task queue (whose workers own the repositories),
 * retried until it lands; the activity is idempotent by the request's key, so a retry never makes a second commit.
 * When the project has an external remote, the push runs in its own workflow, so the writer has its SHA at once and a
 * slow or failing remote never holds up the hosted repository.
 */
export async function gitCommitWorkflow(input: { request: CommitRequest; taskQueue: string }): Promise<CommitOutcome> {
  return commitOnGitQueue(input.request, input.taskQueue);
}

/** The commit activity's retries: a refusal is not retried (the activity throws it non-retryable). */
export const COMMIT_RETRY = { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', maximumAttempts: 10 };

/**
 * The write itself, for any workflow that commits (the commit workflow above, a release and the image updates
 * directly): the commit activity, then the push workflow when the project has an external remote.
 *
 * `local`: the commit runs as a local activity of the worker running the workflow, inside its workflow task (issue
 * 35: no task queue round trip, no second workflow task before the next step). Every worker process runs the `git`
 * queue's worker too and holds the repositories' volume, and the commit path takes the repository's advisory lock
 * and is idempotent by key either way; a worker killed mid-commit lets its workflow task time out, and the task's
 * retry on another worker runs the commit again under the same key. Otherwise the activity goes to the `git` task queue, heartbeating.
 */
export async function commitOnGitQueue(
  request: CommitRequest,
  taskQueue: string,
  local = false,
): Promise<CommitOutcome> {
  const { commitToRepository } = local
    ? proxyLocalActivities<GitActivities>({ startToCloseTimeout: '2 minutes', retry: COMMIT_RETRY })
    : proxyActivities<GitActivities>({
        taskQueue,
        startToCloseTimeout: '2 minutes',
        // The activity heartbeats every second: a worker killed mid-commit is noticed here, not after two minutes.
        heartbeatTimeout: '5 seconds',
        retry: COMMIT_RETRY,
      });
  const outcome = await commitToRepository(request);
  await afterCommit(request, outcome, taskQueue);
  return outcome;
}

/** The push of one commit: one workflow whoever starts it (a workflow after its commit, or an API process). */
export const pushWorkflowId = (projectId: string, sha: string) => `git-push-${projectId}-${sha}`;
/** A repository's maintenance after a write: one at a time per repository. */
export const maintenanceWorkflowId = (projectId: string) => `git-maintenance-${projectId}`;

/** What follows a new commit, each in a workflow of its own: the push to the external remote, repository upkeep. */
export async function afterCommit(
  target: { organizationId: string; projectId: string },
  outcome: CommitOutcome,
  taskQueue: string,
): Promise<void> {
  const { organizationId, projectId } = target;
  if (outcome.sha && outcome.remote) {
    // The same commit's push started before (a write retried under the same key) is the same push: it runs once.
    await startDetached(gitPushWorkflow, pushWorkflowId(projectId, outcome.sha), [
      { request: { organizationId, projectId, sha: outcome.sha }, taskQueue },
    ]);
  }
  if (outcome.maintenance && patched('repository-maintenance')) {
    // After the write, in its own workflow: the writer never waits for git gc (one at a time per repository).
    await startDetached(repositoryMaintenanceWorkflow, maintenanceWorkflowId(projectId), [
      { taskQueue, target: { organizationId, projectId } },
    ]);
  }
}

/**
 * Pushes a commit to the project's external remote, retried with backoff; every attempt's result is recorded (the
 * commit list shows the latest). A remote that keeps failing ends as `failed`; the hosted repository is unaffected.
 */
export async function gitPushWorkflow(input: { request: PushRequest; taskQueue: string }): Promise<PushOutcome> {
  const { pushToRemote } = proxyActivities<GitActivities>({
    taskQueue: input.taskQueue,
    startToCloseTimeout: '5 minutes',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
  });
  try {
    return await pushToRemote(input.request);
  } catch {
    return { status: 'failed', error: 'push failed after retries; see the commit list for the last error' };
  }
}

/**
 * Repository maintenance (`git gc --auto`) on the `git` queue: one repository after a large or a periodic commit, or
 * every repository when the schedule `git-maintenance` (src/gitops/maintenance-schedule.ts) runs it with no target.
 */
export async function repositoryMaintenanceWorkflow(input: {
  taskQueue: string;
  target: MaintenanceTarget | null;
}): Promise<number> {
  const { maintainRepositories } = proxyActivities<GitActivities>({
    taskQueue: input.taskQueue,
    startToCloseTimeout: '1 hour',
    heartbeatTimeout: '5 minutes',
    retry: { initialInterval: '10 seconds', maximumAttempts: 3 },
  });
  return maintainRepositories(input.target);
}
