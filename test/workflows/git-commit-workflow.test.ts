import type { CommitOutcome, CommitRequest } from '../../src/gitops/commit-path';
import type { MaintenanceTarget } from '../../src/gitops/repository-maintenance';
import { ApplicationFailure } from '@temporalio/common';
import type { GitActivities } from '../../activities/git';
import { COMMIT_RETRY, gitCommitWorkflow, repositoryMaintenanceWorkflow } from '../../workflows/git-commit';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { historiesOf } from '../helpers/workflow-histories';

/**
 * The commit workflow's logic with stub activities: a commit that asks for maintenance starts the repository's
 * maintenance workflow after the write (abandoned: the writer has its SHA at once), one that does not starts nothing.
 */
let outcome: CommitOutcome;
const maintained: (MaintenanceTarget | null)[] = [];
/** The commit attempts so far, and how the next ones fail before one lands (an outage, or a refusal). */
let attempts = 0;
let failures: { left: number; error: () => Error } = { left: 0, error: () => new Error('none') };

const stubs: GitActivities = {
  commitToRepository: async () => {
    attempts += 1;
    if (failures.left > 0) {
      failures.left -= 1;
      throw failures.error();
    }
    return outcome;
  },
  pushToRemote: async () => ({ status: 'pushed', error: null }),
  maintainRepositories: async (target) => {
    maintained.push(target);
    return 1;
  },
};

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs);
/** The outage's history joins the short workflows' fixtures (UPDATE_WORKFLOW_HISTORIES=1), replayed by workflow-replay. */
const { keep } = historiesOf('short');

const request = (key: string): CommitRequest => ({
  organizationId: 'org-1',
  projectId: `project-${key}`,
  idempotencyKey: key,
  workflowId: `git-commit-${key}`,
  message: 'change',
  actor: { userId: null, actorType: 'system', actor: 'test', email: null, requestId: null },
  operation: { type: 'files', writes: [{ path: 'a.md', content: 'a\n' }], deletes: [] },
});

async function commit(key: string) {
  return ts.env.client.workflow.execute(gitCommitWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `git-commit-${key}`,
    args: [{ request: request(key), taskQueue: ts.taskQueue }],
  });
}

describe('git commit workflow', () => {
  it('starts the maintenance of the repository when the commit asks for it', async () => {
    outcome = { sha: 'a'.repeat(40), created: true, auditIds: ['e1'], remote: false, maintenance: true };
    expect(await commit('large')).toEqual(outcome);
    const handle = ts.env.client.workflow.getHandle<typeof repositoryMaintenanceWorkflow>(
      'git-maintenance-project-large',
    );
    expect(await handle.result()).toBe(1);
    expect(maintained).toEqual([{ organizationId: 'org-1', projectId: 'project-large' }]);
    await keep('git-commit-with-maintenance', ts.env.client.workflow.getHandle('git-commit-large'));
  });

  it('starts no maintenance for an ordinary commit', async () => {
    maintained.length = 0;
    outcome = { sha: 'b'.repeat(40), created: true, auditIds: ['e2'], remote: false };
    expect(await commit('small')).toEqual(outcome);
    await expect(ts.env.client.workflow.getHandle('git-maintenance-project-small').describe()).rejects.toMatchObject({
      name: 'WorkflowNotFoundError',
    });
    expect(maintained).toEqual([]);
  });

  it('maintains every repository when the schedule runs it without a target', async () => {
    maintained.length = 0;
    const count = await ts.env.client.workflow.execute(repositoryMaintenanceWorkflow, {
      taskQueue: ts.taskQueue,
      workflowId: 'git-maintenance-all',
      args: [{ taskQueue: ts.taskQueue, target: null }],
    });
    expect([count, maintained]).toEqual([1, [null]]);
  });

  it('outlasts an outage longer than its first attempts: it keeps trying on the git queue and lands once', async () => {
    // Two failures more than the first round's attempts (about 3 s of backoff), which then continue on the git queue
    // (1 s, then 2 s: the backoff grows to a minute, for GIT_COMMIT_PATIENCE).
    outcome = { sha: 'c'.repeat(40), created: true, auditIds: ['e3'], remote: false };
    attempts = 0;
    failures = { left: COMMIT_RETRY.maximumAttempts + 2, error: () => new Error('ENOSPC: no space left on device') };
    expect(await commit('outage')).toEqual(outcome);
    expect(attempts).toBe(COMMIT_RETRY.maximumAttempts + 3);
    await keep('git-commit-outage', ts.env.client.workflow.getHandle('git-commit-outage'));
  });

  it('fails a commit refused on its merits at once, without waiting', async () => {
    attempts = 0;
    failures = { left: 1, error: () => ApplicationFailure.nonRetryable('the target is frozen', 'TargetFrozen') };
    await expect(commit('refused')).rejects.toMatchObject({ name: 'WorkflowFailedError' });
    expect(attempts).toBe(1);
  });
});
