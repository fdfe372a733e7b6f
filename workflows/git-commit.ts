import { proxyActivities } from '@temporalio/workflow';
import type { CommitOutcome, CommitRequest } from '../src/gitops/commit-path';

/** The `git` task queue's activity (activities/git.ts implements it). */
export type GitActivities = {
  commitToRepository(request: CommitRequest): Promise<CommitOutcome>;
};

/**
 * One write to a hosted repository: the commit activity on the `git` task queue (whose workers own the repositories),
 * retried until it lands; the activity is idempotent by the request's key, so a retry never makes a second commit.
 */
export async function gitCommitWorkflow(input: { request: CommitRequest; taskQueue: string }): Promise<CommitOutcome> {
  const { commitToRepository } = proxyActivities<GitActivities>({
    taskQueue: input.taskQueue,
    startToCloseTimeout: '2 minutes',
    // The activity heartbeats every second: a worker killed mid-commit is noticed here, not after two minutes.
    heartbeatTimeout: '5 seconds',
    retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', maximumAttempts: 10 },
  });
  return commitToRepository(input.request);
}
