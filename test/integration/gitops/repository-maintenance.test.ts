import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { buildCommit, moveBranch } from '../../../src/git/commit-writer';
import { gitText } from '../../../src/git/git-plumbing';
import { ensureMaintenanceSchedule } from '../../../src/gitops/maintenance-schedule';
import { maintainRepositories, packsCrowded } from '../../../src/gitops/repository-maintenance';
import { PendingObjects } from '../../../src/git/pending-objects';
import { createRepositoryStore } from '../../../src/git/repository-store';

let platform: TestPlatform;
let dataDir: string;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'maintenance-'));
}, 120_000);
afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
  await platform.close();
});

const packs = async (repo: string) => Number(/^packs: (\d+)/m.exec(await gitText(repo, ['count-objects', '-v']))?.[1]);

it('repacks every hosted repository that git says needs it', async () => {
  const store = createRepositoryStore(path.join(dataDir, 'git'));
  const repos = [await store.ensure('org-a', 'p1'), await store.ensure('org-b', 'p2')];
  for (const repo of repos) {
    let parent: string | null = null;
    for (let i = 0; i < 3; i++) {
      const files = Array.from({ length: 120 }, (_, f) => [`d${i}/f${f}.md`, `${i} ${f}\n`] as const);
      const changes = { writes: new Map(files), deletes: [] };
      const sha = await buildCommit(repo, parent, changes, {
        author: { name: 'a', email: 'a@b' },
        message: 'm',
        trailers: [],
      });
      await moveBranch(repo, sha!, parent);
      parent = sha;
    }
    // Each large commit leaves a pack; gc --auto repacks past gc.autoPackLimit of them (50 by default; 2 here).
    await gitText(repo, ['config', 'gc.autoPackLimit', '2']);
    expect(await packs(repo)).toBe(3);
  }
  expect(await maintainRepositories(store, null)).toBe(2);
  for (const repo of repos) expect(await packs(repo)).toBe(1);
  expect(await maintainRepositories(store, { organizationId: 'org-a', projectId: 'p1' })).toBe(1);
  expect(await maintainRepositories(store, { organizationId: 'org-a', projectId: 'missing' })).toBe(0);
});

it('merges the small packs of commit passes, asked for once they crowd the repository', async () => {
  const store = createRepositoryStore(path.join(dataDir, 'git'));
  const repo = await store.ensure('org-c', 'p3');
  const meta = { author: { name: 'a', email: 'a@b' }, message: 'm', trailers: [] };
  const seed = { writes: new Map(Array.from({ length: 150 }, (_, f) => [`base/f${f}.md`, `${f}\n`])), deletes: [] };
  let parent = await buildCommit(repo, null, seed, meta);
  await moveBranch(repo, parent!, null);
  // One pack a pass, as the commit path writes them.
  for (let i = 0; i < 26; i++) {
    const pass = new PendingObjects(repo);
    const sha = await buildCommit(
      repo,
      parent,
      { writes: new Map([[`w/${i}.md`, `${i}\n`]]), deletes: [] },
      meta,
      pass,
    );
    await pass.flush();
    await moveBranch(repo, sha!, parent);
    parent = sha;
    expect(packsCrowded(repo)).toBe(i + 2 > 24);
  }
  expect(await packs(repo)).toBe(27);
  expect(await maintainRepositories(store, { organizationId: 'org-c', projectId: 'p3' })).toBe(1);
  expect(await packs(repo)).toBeLessThanOrEqual(2);
  expect(packsCrowded(repo)).toBe(false);
  await gitText(repo, ['fsck', '--strict', '--no-dangling']);
  expect(await gitText(repo, ['show', 'main:w/25.md'])).toBe('25\n');
});

it('creates the maintenance schedule once and keeps its interval current', async () => {
  const client = platform.services.temporal;
  const prefix = platform.config.temporal.taskQueuePrefix;
  const opts = { prefix, workflowQueue: `${prefix}platform`, gitQueue: `${prefix}git`, intervalMs: 3_600_000 };
  await ensureMaintenanceSchedule(client, opts);
  await ensureMaintenanceSchedule(client, { ...opts, intervalMs: 600_000 });
  const handle = client.schedule.getHandle(`${prefix}git-maintenance`);
  try {
    const described = await handle.describe();
    expect(described.spec.intervals?.map((i) => i.every)).toEqual([600_000]);
    expect(described.action).toMatchObject({ workflowType: 'repositoryMaintenanceWorkflow' });
  } finally {
    await handle.delete();
  }
});
