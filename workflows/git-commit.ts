import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { CommitOutcome, CommitRequest } from '../src/gitops/commit-path';
import type { PushOutcome, PushRequest } from '../src/gitops/remote-push';

/** The `git` task queue's activities (activities/git.ts implements them). */
export type GitActivities = {
  commitToRepository(request: CommitRequest): Promise<CommitOutcome>;
  pushToRemote(request: PushRequest): Promise<PushOutcome>;
};

/**
 * One write to a hosted repository: the commit activity on the `git` task queue (whose workers own the repositories),
 * retried until it lands; the activity is idempotent by the request's key, so a retry never makes a second commit.
 * When the project has an external remote, the push runs in its own workflow, so the writer has its SHA at once and a
 * slow or failing remote never holds up the hosted repository.
 */
export async function gitCommitWorkflow(input: { request: CommitRequest; taskQueue: string }): Promise<CommitOutcome> {
  return commitOnGitQueue(input.request, input.taskQueue);
}

/**
 * The write itself, for any workflow that commits (the commit workflow above, and a release directly): the commit
 * activity on the `git` queue, then the push workflow when the project has an external remote.
 */
export async function commitOnGitQueue(request: CommitRequest, taskQueue: string): Promise<CommitOutcome> {
  const { commitToRepository } = proxyActivities<GitActivities>({
    taskQueue,
    startToCloseTimeout: '2 minutes',
    // The activity heartbeats every second: a worker killed mid-commit is noticed here, not after two minutes.
    heartbeatTimeout: '5 seconds',
    retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', maximumAttempts: 10 },
  });
  const outcome = await commitToRepository(request);
  if (outcome.sha && outcome.remote) {
    const { organizationId, projectId } = request;
    try {
      await startChild(gitPushWorkflow, {
        workflowId: `git-push-${projectId}-${outcome.sha}`,
        args: [{ request: { organizationId, projectId, sha: outcome.sha }, taskQueue }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch (err) {
      // The same commit's push was started before (a write retried under the same key): it runs once.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
  return outcome;
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
