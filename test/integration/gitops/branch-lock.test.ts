import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildCommit, moveBranch, readBranch } from '../../../src/git/commit-writer';
import { createRepositoryStore } from '../../../src/git/repository-store';

/** The branch moves by git's lock-file protocol: a lock git holds is waited for, one a dead process left is removed. */
let dataDir: string;
let repo: string;
let first: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'branch-lock-'));
  repo = await createRepositoryStore(path.join(dataDir, 'git')).ensure('org', 'project');
  const changes = { writes: new Map([['a.md', 'a\n']]), deletes: [] };
  first = (await buildCommit(repo, null, changes, {
    author: { name: 'a', email: 'a@b' },
    message: 'm',
    trailers: [],
  }))!;
  await moveBranch(repo, first, null);
});
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

async function next(parent: string, file: string): Promise<string> {
  const changes = { writes: new Map([[file, `${file}\n`]]), deletes: [] };
  return (await buildCommit(repo, parent, changes, {
    author: { name: 'a', email: 'a@b' },
    message: 'm',
    trailers: [],
  }))!;
}

it('refuses to move a branch that is not where the writer thinks (compare-and-swap)', async () => {
  const commit = await next(first, 'b.md');
  await expect(moveBranch(repo, commit, commit)).rejects.toThrow(/is at/);
  expect(await readBranch(repo)).toBe(first);
  await expect(fs.access(path.join(repo, 'refs/heads/main.lock'))).rejects.toThrow();
});

it('removes a lock a dead process left, and fails on one that is held', async () => {
  const lock = path.join(repo, 'refs/heads/main.lock');
  await fs.writeFile(lock, '');
  const commit = await next(first, 'c.md');
  await expect(moveBranch(repo, commit, first)).rejects.toMatchObject({ code: 'EEXIST' });
  expect(await readBranch(repo)).toBe(first);
  const old = new Date(Date.now() - 120_000);
  await fs.utimes(lock, old, old);
  await moveBranch(repo, commit, first);
  expect(await readBranch(repo)).toBe(commit);
});
