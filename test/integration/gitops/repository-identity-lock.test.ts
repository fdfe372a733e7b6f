import fs from 'node:fs/promises';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { scratchDir } from '../../helpers/scratch-dir';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { commitPathDepsOf, runCommit, type CommitPathDeps, type CommitRequest } from '../../../src/gitops/commit-path';
import { gitText } from '../../../src/git/git-plumbing';
import { createRepositoryStore } from '../../../src/git/repository-store';
import { commitOperationKinds } from '../../../src/runtime/commit-operations';
import { makeProject } from './gitops-harness';

/**
 * Issue 43, H1: two writers reaching one repository folder by different paths (here a symlink to the volume; in
 * production another mount point) must exclude each other. With the lock keyed by the path, each took its own lock,
 * and `settledParent` put the other's just-moved branch back: commits answered `committed` were not on main.
 */
let platform: TestPlatform;
let viaRoot: CommitPathDeps;
let viaLink: CommitPathDeps;
let repo: string;
let projectId: string;
let request: (key: string) => CommitRequest;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  const { org, members } = await makeOrg(platform, ['owner']);
  await makeProject(platform, members.owner!.token, 'twopaths', ['acme']);
  const s = platform.services;
  projectId = (
    (await s.db('projects').where({ organization_id: org.id, slug: 'twopaths' }).first('id')) as {
      id: string;
    }
  ).id;
  const link = path.join(scratchDir('git-link-'), 'volume');
  await fs.symlink(s.config.gitops.repositoriesDir, link);
  // Two commit paths, as two processes would have: each its own waiting map, one through the symlink.
  viaRoot = commitPathDepsOf(s, commitOperationKinds());
  viaLink = { ...commitPathDepsOf(s, commitOperationKinds()), repositories: createRepositoryStore(link) };
  expect(viaLink.repositories.pathOf(org.id, projectId)).not.toBe(viaRoot.repositories.pathOf(org.id, projectId));
  repo = s.repositories.pathOf(org.id, projectId);
  request = (key) => ({
    organizationId: org.id,
    projectId,
    idempotencyKey: key,
    workflowId: `test-two-paths-${key}`,
    message: key,
    actor: { userId: members.owner!.user.id, actorType: 'user', actor: 'owner', email: null, requestId: null },
    operation: { type: 'files', writes: [{ path: `notes/${key}.md`, content: `${key}\n` }], deletes: [] },
  });
}, 120_000);
afterAll(() => platform.close());

it('loses no commit over 100 rounds of concurrent writes through two paths to one repository', async () => {
  const rounds = 100;
  const refused: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const results = await Promise.allSettled([
      runCommit(viaRoot, request(`root-${round}`)),
      runCommit(viaLink, request(`link-${round}`)),
    ]);
    for (const r of results) if (r.status === 'rejected') refused.push(String(r.reason));
  }
  const db = platform.services.db;
  const onBranch = new Set((await gitText(repo, ['rev-list', 'main'])).split('\n').filter(Boolean));
  const recorded = (await db('git_commits').where({ project_id: projectId }).pluck('sha')) as string[];
  const audited = (await db('audit_log')
    .where({ project_id: projectId })
    .whereNotNull('git_commit_sha')
    .distinct()
    .pluck('git_commit_sha')) as string[];
  const lost = [...new Set([...recorded, ...audited])].filter((sha) => !onBranch.has(sha));
  expect({ lost, refused }).toEqual({ lost: [], refused: [] });
  expect(recorded.length).toBeGreaterThanOrEqual(2 * rounds);
}, 600_000);
