import type { CommitClient, CommitInput } from '../../../src/gitops/commit-client';
import type { Project } from '../../../src/projects/project-repository';
import { createImageCommitBatcher } from '../../../src/webhooks/image-commit-batcher';

const project = { id: 'p1', organizationId: 'o1', slug: 'shop' } as Project;
const pair = (tenant: string) => ({ tenant, environment: 'dev' });

/** A commit client that records each commit's input and finishes when the test says so. */
function recordingClient() {
  const commits: CommitInput[] = [];
  const finish: (() => void)[] = [];
  const client: CommitClient = (_caller, _project, input) => {
    commits.push(input);
    return new Promise((resolve) => {
      finish.push(() => resolve({ sha: `sha${commits.length}`, created: true, auditIds: [], remote: false }));
    });
  };
  return { client, commits, finish };
}

describe('the image commit batcher (group commit)', () => {
  it('puts the requests that arrive during a commit into one next commit, newest signed tag winning', async () => {
    const { client, commits, finish } = recordingClient();
    const batcher = createImageCommitBatcher(client);
    const first = batcher.submit(project, 'r1', 1000, [
      { workload: 'web', tag: '1', pairs: [pair('acme')], requestId: 'r1' },
    ]);
    // While r1 commits: r3 (signed later) and r2 (signed earlier, arriving after) touch the same target; r4 another.
    const third = batcher.submit(project, 'r3', 3000, [
      { workload: 'web', tag: '3', pairs: [pair('globex')], requestId: 'r3' },
    ]);
    const second = batcher.submit(project, 'r2', 2000, [
      { workload: 'web', tag: '2', pairs: [pair('globex')], requestId: 'r2' },
    ]);
    const fourth = batcher.submit(project, 'r4', 4000, [
      { workload: 'api', tag: '4', pairs: [pair('acme')], requestId: 'r4' },
    ]);
    expect(commits).toHaveLength(1);
    finish[0]!();
    expect(await first).toEqual({ sha: 'sha1', superseded: [] });
    await new Promise((r) => setImmediate(r));
    expect(commits).toHaveLength(2);
    const op = commits[1]!.operation as {
      type: 'image';
      workload: string;
      tag: string;
      requestId: string;
      more: unknown[];
    };
    const updates = [
      { workload: op.workload, tag: op.tag, requestId: op.requestId },
      ...(op.more as (typeof op)[]),
    ].map((u) => `${u.requestId}:${u.workload}:${u.tag}`);
    expect(updates.sort()).toEqual(['r3:web:3', 'r4:api:4']);
    finish[1]!();
    expect(await third).toEqual({ sha: 'sha2', superseded: [] });
    expect(await second).toEqual({ sha: 'sha2', superseded: [{ workload: 'web', ...pair('globex') }] });
    expect(await fourth).toEqual({ sha: 'sha2', superseded: [] });
  });

  it('fails every request of a group whose commit fails, and keeps serving the project', async () => {
    let calls = 0;
    const client: CommitClient = async () => {
      calls += 1;
      if (calls === 1) throw new Error('git down');
      return { sha: 'ok', created: true, auditIds: [], remote: false };
    };
    const batcher = createImageCommitBatcher(client);
    await expect(
      batcher.submit(project, 'a', 1, [{ workload: 'web', tag: '1', pairs: [pair('acme')] }]),
    ).rejects.toThrow('git down');
    await expect(
      batcher.submit(project, 'b', 2, [{ workload: 'web', tag: '2', pairs: [pair('acme')] }]),
    ).resolves.toEqual({
      sha: 'ok',
      superseded: [],
    });
  });
});

describe('the image commit batcher across groups', () => {
  it('never lets a request signed earlier overwrite a target a previous group committed', async () => {
    const { client, commits, finish } = recordingClient();
    const batcher = createImageCommitBatcher(client);
    const newer = batcher.submit(project, 'new', 5000, [{ workload: 'web', tag: 'new', pairs: [pair('acme')] }]);
    finish[0]!();
    await newer;
    const older = batcher.submit(project, 'old', 4000, [{ workload: 'web', tag: 'old', pairs: [pair('acme')] }]);
    expect(await older).toEqual({ sha: null, superseded: [{ workload: 'web', ...pair('acme') }] });
    expect(commits).toHaveLength(1);
  });
});
