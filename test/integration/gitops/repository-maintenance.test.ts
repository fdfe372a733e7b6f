import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { buildCommit, moveBranch } from '../../../src/git/commit-writer';
import { gitText } from '../../../src/git/git-plumbing';
import { ensureMaintenanceSchedule } from '../../../src/gitops/maintenance-schedule';
import { maintainRepositories } from '../../../src/gitops/repository-maintenance';
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
