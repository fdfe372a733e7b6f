import { WorkflowExecutionAlreadyStartedError, type RetryPolicy } from '@temporalio/common';
import {
  ActivityFailure,
  ApplicationFailure,
  ParentClosePolicy,
  TimeoutFailure,
  patched,
  proxyActivities,
  proxyLocalActivities,
  startChild,
} from '@temporalio/workflow';
import type { CommitOutcome, CommitRequest } from '../src/gitops/commit-path';
import type { GitActivities } from '../activities/git';
import { maintenanceWorkflowId, pushWorkflowId } from '../src/gitops/git-workflow-contract';
import type { PushOutcome, PushRequest } from '../src/gitops/remote-push';
import type { MaintenanceTarget } from '../src/gitops/repository-maintenance';
import type { StartDescription } from '../src/temporal/workflow-labels';
import { childDescription } from './lib/child-description';

/** Starts a child workflow that outlives its parent; one already running under the same id is that same work. */
async function startDetached<A extends unknown[]>(
  workflow: (...args: A) => Promise<unknown>,
  workflowId: string,
  args: A,
  description: StartDescription,
): Promise<void> {
  try {
    await startChild(workflow, { workflowId, args, parentClosePolicy: ParentClosePolicy.ABANDON, ...description });
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

/**
 * The commit activity's first retries, in the worker that took the step when the commit is local: a lock held a
 * moment too long or a blip (about 3 s in all). A refusal is not retried (the activity throws it non-retryable); an
 * outage outlives these and continues with patientOptions on the `git` queue.
 */
export const COMMIT_RETRY = { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', maximumAttempts: 5 };

/**
 * How long a commit waits out an infrastructure outage (a full disk, a missing volume, a lock timeout) by default:
 * GIT_COMMIT_PATIENCE (src/config/gitops.ts) passes the deployment's bound into each workflow that commits.
 */
export const DEFAULT_COMMIT_PATIENCE_MS = 6 * 60 * 60_000;

/** How a commit outlasts an outage: the bound, and what the workflow tells its watchers when the wait begins. */
export interface CommitPatience {
  /** How long the commit keeps retrying after its first attempts failed (absent in older inputs: the default). */
  patienceMs?: number;
  /** Called once, with the last error, when the first attempts failed and the commit starts waiting out the outage. */
  onOutage?: (reason: string) => Promise<void>;
}

/**
 * What a commit waiting out an outage says about itself (a release's status reason, a workflow's current details, an
 * image update's status): the first failure's reason and since when it has been retrying (`since`: epoch ms).
 */
export function commitWaitNote(reason: string, since: number): string {
  return `commit waiting for the Git volume: ${reason}, retrying since ${new Date(since).toISOString()}`;
}

/** Patch id: commits outlast outages (issue 43) instead of failing after the first attempts (once about 27 s). */
const OUTLAST_OUTAGES = 'commit-outlasts-outages';

/**
 * The write itself, for any workflow that commits (the commit workflow above, a release and the image updates
 * directly): the commit activity, then the push workflow when the project has an external remote.
 *
 * `local`: the commit runs as a local activity of the worker running the workflow, inside its workflow task (issue
 * 35: no task queue round trip, no second workflow task before the next step). Every worker process runs the `git`
 * queue's worker too and holds the repositories' volume, and the commit path takes the repository's advisory lock
 * and is idempotent by key either way; a worker killed mid-commit lets its workflow task time out, and the task's
 * retry on another worker runs the commit again under the same key. Otherwise the activity goes to the `git` task queue, heartbeating.
 *
 * When the first attempts fail for a reason other than a refusal (the infrastructure's fault), the commit keeps trying
 * on the `git` queue, so on any worker, with backoff up to a minute, for `patience.patienceMs`; only a refusal on the
 * merits, or an outage longer than that, fails it.
 */
export async function commitOnGitQueue(
  request: CommitRequest,
  taskQueue: string,
  local = false,
  patience: CommitPatience = {},
): Promise<CommitOutcome> {
  const { commitToRepository } = local
    ? proxyLocalActivities<GitActivities>({ startToCloseTimeout: '2 minutes', retry: COMMIT_RETRY })
    : gitQueueCommit(taskQueue, { retry: COMMIT_RETRY });
  const outcome = await outlastingOutages(
    () => commitToRepository(request),
    () => gitQueueCommit(taskQueue, patientOptions(patience)).commitToRepository(request),
    patience,
  );
  await afterCommit(request, outcome, taskQueue);
  return outcome;
}

/** The retries of a commit waiting out an outage: backoff up to a minute, for the patience's bound. */
export function patientOptions(patience: CommitPatience) {
  return {
    scheduleToCloseTimeout: patience.patienceMs ?? DEFAULT_COMMIT_PATIENCE_MS,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  };
}

/**
 * Runs `first` (a commit's first attempts); when they fail through the infrastructure rather than a refusal, tells
 * `patience.onOutage` and runs `patient` (the same commit as an activity any worker may take, retried for the bound).
 */
export async function outlastingOutages<T>(
  first: () => Promise<T>,
  patient: () => Promise<T>,
  patience: CommitPatience,
): Promise<T> {
  try {
    return await first();
  } catch (err) {
    if (!isOutage(err) || !patched(OUTLAST_OUTAGES)) throw err;
    await patience.onOutage?.(outageReason(err));
    return patient();
  }
}

/** The commit activity on the `git` task queue (any worker that polls it), heartbeating. */
function gitQueueCommit(taskQueue: string, options: { retry: RetryPolicy; scheduleToCloseTimeout?: number }) {
  return proxyActivities<GitActivities>({
    taskQueue,
    startToCloseTimeout: '2 minutes',
    // The activity heartbeats every second: a worker killed mid-commit is noticed here, not after two minutes.
    heartbeatTimeout: '5 seconds',
    ...options,
  });
}

/**
 * A commit that failed through the infrastructure (retries spent or timed out), not refused on its merits (a refusal is
 * thrown non-retryable). A local activity's failure arrives as its cause itself, a remote one's inside ActivityFailure.
 */
function isOutage(err: unknown): boolean {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof TimeoutFailure || (failure instanceof ApplicationFailure && !failure.nonRetryable);
}

function outageReason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}

/** What follows a new commit, each in a workflow of its own: the push to the external remote, repository upkeep. */
export async function afterCommit(
  target: { organizationId: string; projectId: string },
  outcome: CommitOutcome,
  taskQueue: string,
): Promise<void> {
  const { organizationId, projectId } = target;
  if (outcome.sha && outcome.remote) {
    // The same commit's push started before (a write retried under the same key) is the same push: it runs once.
    await startDetached(
      gitPushWorkflow,
      pushWorkflowId(projectId, outcome.sha),
      [{ request: { organizationId, projectId, sha: outcome.sha }, taskQueue }],
      childDescription(target, `push ${outcome.sha.slice(0, 12)} to the external remote`),
    );
  }
  if (outcome.maintenance && patched('repository-maintenance')) {
    // After the write, in its own workflow: the writer never waits for git gc (one at a time per repository).
    await startDetached(
      repositoryMaintenanceWorkflow,
      maintenanceWorkflowId(projectId),
      [{ taskQueue, target: { organizationId, projectId } }],
      childDescription(target, 'repository maintenance'),
    );
  }
}

/**
 * Pushes a commit to the project's external remote, retried with backoff; every attempt's result is recorded (the
 * commit list shows the latest). A remote that keeps failing ends as `failed`; the hosted repository is unaffected.
 */
export async function gitPushWorkflow(input: {
  request: PushRequest;
  taskQueue: string;
  /** The first retry's wait (2 s unless given: tests shorten it, as the time-skipping server waits out backoffs). */
  retryInitialIntervalMs?: number;
}): Promise<PushOutcome> {
  const { pushToRemote } = proxyActivities<GitActivities>({
    taskQueue: input.taskQueue,
    startToCloseTimeout: '5 minutes',
    retry: {
      initialInterval: input.retryInitialIntervalMs ?? '2 seconds',
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      maximumAttempts: 5,
    },
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
