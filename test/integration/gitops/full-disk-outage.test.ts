import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { scaled } from '../../helpers/time-scale';
import { releaseClient } from '../releases/release-harness';
import { gitText } from '../../../src/gitops/git-plumbing';
import { makeProject } from './gitops-harness';

/**
 * A real full disk under the hosted repositories for a minute (issue 43): the Git folder is a small tmpfs of its own,
 * filled to the last byte while a release commits. The release waits the outage out (its commit keeps retrying, on
 * the `git` queue, for GIT_COMMIT_PATIENCE) and commits exactly once when space is back; it never fails.
 */
const OUTAGE_MS = 60_000;

let platform: TestPlatform;
let root: string;
let gitDir: string;
let token: string;
let tenantId: string;
let repo: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'full-disk-'));
  fs.chmodSync(root, 0o755);
  gitDir = path.join(root, 'git');
  fs.mkdirSync(gitDir);
  // Root mounts it (CI and this machine run the suite as root): a volume that really fills up.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', gitDir]);
  platform = await startTestPlatform({ env: { GIT_REPOSITORIES_DIR: gitDir } });
  const { org, members } = await makeOrg(platform, ['owner']);
  token = members.owner!.token;
  tenantId = (await makeProject(platform, token, 'shop', ['acme'])).acme!;
  const project = (await platform.services
    .db('projects')
    .where({ organization_id: org.id, slug: 'shop' })
    .first('id')) as { id: string };
  repo = platform.services.repositories.pathOf(org.id, project.id);
}, 120_000);

afterAll(async () => {
  await platform?.close();
  // Unmounted before its folder is removed (scratchDir would remove it while mounted).
  if (gitDir) execFileSync('umount', [gitDir]);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** Writes zeros until the volume refuses a byte more; returns the filler's path. */
function fillUp(dir: string): string {
  const filler = path.join(dir, 'filler');
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(1 << 20);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  // The last partial chunk too: not one more byte fits.
  try {
    fs.appendFileSync(filler, Buffer.alloc(4096));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  return filler;
}

it('a release whose commit meets a full disk for a minute waits, then commits once, and never fails', async () => {
  const releases = releaseClient(platform);
  const commitsBefore = (await gitText(repo, ['rev-list', '--all', '--count'])).trim();
  const filler = fillUp(gitDir);
  const created = await releases.create(token, 'shop', {
    environment: 'dev',
    tenantId,
    title: 'web 2.0.0',
    changes: [{ workload: 'web', tag: '2.0.0' }],
  });
  expect(created.status).toBe(201);
  const seen = new Set<string>();
  for (const until = Date.now() + OUTAGE_MS; Date.now() < until;) {
    const release = await releases.get(token, created.body.id);
    seen.add(`${release.status}${release.commitSha ? ' committed' : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  // The whole minute (after its validation): deploying, nothing committed, not failed.
  expect([...seen].filter((s) => s !== 'Validating')).toEqual(['Deploying']);
  expect((await gitText(repo, ['rev-list', '--all', '--count'])).trim()).toBe(commitsBefore);
  fs.rmSync(filler);
  const committed = await releases.until(token, created.body.id, (r) => r.commitSha !== null, scaled(150_000));
  expect(committed.status).not.toBe('Failed');
  expect((await gitText(repo, ['rev-parse', 'main'])).trim()).toBe(committed.commitSha);
  expect(Number((await gitText(repo, ['rev-list', '--all', '--count'])).trim())).toBe(Number(commitsBefore) + 1);
}, 300_000);
