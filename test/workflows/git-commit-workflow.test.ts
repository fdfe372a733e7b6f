import type { CommitOutcome, CommitRequest } from '../../src/gitops/commit-path';
import type { MaintenanceTarget } from '../../src/gitops/repository-maintenance';
import { gitCommitWorkflow, repositoryMaintenanceWorkflow, type GitActivities } from '../../workflows/git-commit';
import { timeSkippingWorker } from '../helpers/time-skipping';

/**
 * The commit workflow's logic with stub activities: a commit that asks for maintenance starts the repository's
 * maintenance workflow after the write (abandoned: the writer has its SHA at once), one that does not starts nothing.
 */
let outcome: CommitOutcome;
const maintained: (MaintenanceTarget | null)[] = [];

const stubs: GitActivities = {
  commitToRepository: async () => outcome,
  pushToRemote: async () => ({ status: 'pushed', error: null }),
  maintainRepositories: async (target) => {
    maintained.push(target);
    return 1;
  },
};

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs);

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
});
