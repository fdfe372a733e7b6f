import { exited, spawnScript } from '../../helpers/child-process';
import { makeOrg } from '../../helpers/fixtures';
import { harnessState } from '../../helpers/harness-state';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, testEnv, type TestPlatform } from '../../helpers/test-platform';
import { findCommitByKey } from '../../../src/gitops/commit-writer';
import { gitText } from '../../../src/gitops/git-plumbing';
import { makeProject } from './gitops-harness';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
}, 120_000);
afterAll(() => platform.close());

describe('the commit activity across a worker crash', () => {
  it('ends with exactly one commit, whose SHA the write returns, when the worker dies mid-commit', async () => {
    const { org, members } = await makeOrg(platform, ['owner']);
    const token = members.owner!.token;
    await makeProject(platform, token, 'crash', ['acme']);
    const project = (await platform.services
      .db('projects')
      .where({ organization_id: org.id, slug: 'crash' })
      .first('id')) as { id: string };
    const repo = platform.services.repositories.pathOf(org.id, project.id);

    // Hold inserts into the audit table: the worker's commit activity writes the Git commit, then stops at its audit
    // entry with its transaction (and the repository lock) open. That is where it is killed.
    const held = await platform.services.db.transaction();
    await held.raw('LOCK TABLE audit_log IN EXCLUSIVE MODE');
    const worker = spawnScript('scripts/serve.ts', ['worker'], {
      ...testEnv(platform.database, platform.config.temporal.taskQueuePrefix),
      WORKFLOW_BUNDLE_PATH: harnessState().bundlePath,
      LOG_LEVEL: 'warn',
    });
    const write = httpClient(platform.url).put<{ commit: string; created: boolean }>(
      '/api/v2/projects/crash/files/content',
      {
        token,
        body: { path: 'notes/crash.md', content: 'survives\n', message: 'Across a crash' },
        headers: { 'Idempotency-Key': 'crash-1' },
      },
    );
    const sha = await eventually(() => findCommitByKey(repo, 'crash-1'), 60_000, 'the commit of the first attempt');
    worker.kill('SIGKILL');
    expect(await exited(worker)).toBe('SIGKILL');
    await held.rollback();

    // Another worker takes over: Temporal retries the activity once the dead one stops heartbeating.
    await platform.startWorker();
    const res = await write;
    expect([res.status, res.text.slice(0, 200)]).toEqual([200, expect.any(String)]);
    expect(res.body.commit).toBe(sha);

    const log = await gitText(repo, ['log', '--format=%H', '--grep=^Idempotency-Key: crash-1$', 'main']);
    expect(log.trim().split('\n')).toEqual([sha]);
    const workflowId = `git-commit-${project.id}-crash-1`;
    const entries = (await platform.services
      .db('audit_log')
      .where({ workflow_id: workflowId })
      .select('action', 'git_commit_sha')) as { action: string; git_commit_sha: string }[];
    expect(entries).toEqual([{ action: 'git.files.commit', git_commit_sha: sha }]);

    const history = await platform.services.temporal.workflow.getHandle(workflowId).fetchHistory();
    const attempts = (history.events ?? [])
      .map((e) => e.activityTaskStartedEventAttributes?.attempt)
      .filter((a): a is number => typeof a === 'number');
    expect(attempts.length).toBe(1);
    expect(attempts[0]).toBeGreaterThanOrEqual(2);
  }, 150_000);
});
