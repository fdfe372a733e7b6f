import fs from 'node:fs';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { scratchDir } from '../../helpers/scratch-dir';
import { sharedSettings, startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { commitPathDepsOf, runCommit } from '../../../src/gitops/commit-path';
import { RepositoryVolumeRefused } from '../../../src/gitops/volume-guard';
import { REPOSITORY_MARKER, ROOT_MARKER } from '../../../src/gitops/volume-marker';
import { commitOperationKinds } from '../../../src/runtime/commit-operations';

/**
 * Issue 43, H2 ("Identity, never location"): GIT_REPOSITORIES_DIR and each repository carry the installation's marker;
 * a process whose folder is empty or another installation's is not ready, and reads, commits and creates nothing
 * there. A volume from before markers is adopted once.
 */
let platform: TestPlatform;
let token: string;
let orgId: string;
let projectId: string;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  const { org, members } = await makeOrg(platform, ['owner']);
  token = members.owner!.token;
  orgId = org.id;
  const created = await httpClient(platform.url).post<{ id: string }>('/api/v2/projects', {
    token,
    body: { slug: 'vol', name: 'vol' },
  });
  expect(created.status).toBe(201);
  projectId = created.body.id;
}, 120_000);
afterAll(() => platform.close());

/** A second API process of the same deployment (database, keys) whose GIT_REPOSITORIES_DIR is `dir`. */
function apiOn(dir: string) {
  return startTestPlatform({
    worker: false,
    database: platform.database,
    env: { ...sharedSettings(platform.config), GIT_REPOSITORIES_DIR: dir },
  });
}

const installation = async () => ((await platform.services.db('installation').first('id')) as { id: string }).id;

it('marks the volume and each repository it creates with the installation (and the project)', async () => {
  const root = platform.config.gitops.repositoriesDir;
  const id = await installation();
  expect(JSON.parse(fs.readFileSync(path.join(root, ROOT_MARKER), 'utf8'))).toEqual({ installationId: id });
  const repo = platform.services.repositories.pathOf(orgId, projectId);
  expect(JSON.parse(fs.readFileSync(path.join(repo, REPOSITORY_MARKER), 'utf8'))).toEqual({
    installationId: id,
    organizationId: orgId,
    projectId,
  });
  expect((await httpClient(platform.url).get('/readyz')).status).toBe(200);
});

it.each([
  ['an empty folder', (_dir: string) => undefined, /has no installation marker/],
  [
    "another installation's folder",
    (dir: string) =>
      fs.writeFileSync(
        path.join(dir, ROOT_MARKER),
        JSON.stringify({ installationId: '7d0f0d7e-0000-4000-8000-000000000000' }),
      ),
    /belongs to installation 7d0f0d7e-0000-4000-8000-000000000000/,
  ],
])(
  'is not ready on %s, and reads, creates and commits nothing there',
  async (_what, prepare, reason) => {
    const dir = scratchDir('git-volume-');
    prepare(dir);
    const before = fs.readdirSync(dir);
    const other = await apiOn(dir);
    try {
      const http = httpClient(other.url);
      const ready = await http.get<{ reasons: Record<string, string> }>('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.reasons['git-volume']).toMatch(reason);
      const created = await http.post('/api/v2/projects', { token, body: { slug: 'elsewhere', name: 'elsewhere' } });
      expect([created.status, created.text]).toEqual([503, expect.stringMatching(/Git volume/)]);
      const read = await http.get('/api/v2/projects/vol/files', { token });
      expect(read.status).toBe(503);
      // The commit path (a worker's, or an API's direct commit) refuses before it locks or writes.
      const commit = runCommit(commitPathDepsOf(other.services, commitOperationKinds()), {
        organizationId: orgId,
        projectId,
        idempotencyKey: `elsewhere-${dir}`,
        workflowId: 'test-elsewhere',
        message: 'on the wrong volume',
        actor: { userId: null, actorType: 'system', actor: 'test', email: null, requestId: null },
        operation: { type: 'files', writes: [{ path: 'x.md', content: 'x\n' }], deletes: [] },
      });
      await expect(commit).rejects.toThrow(RepositoryVolumeRefused);
      expect(fs.readdirSync(dir)).toEqual(before);
    } finally {
      await other.close();
    }
    // The refused create left no project behind.
    expect(await platform.services.db('projects').where({ organization_id: orgId, slug: 'elsewhere' })).toEqual([]);
  },
  120_000,
);

it('refuses a repository folder of another project, and adopts a volume from before markers once', async () => {
  const root = platform.config.gitops.repositoriesDir;
  const copy = path.join(scratchDir('git-adopt-'), 'git');
  fs.cpSync(root, copy, { recursive: true });
  // A volume as an older version left it: no marker anywhere, and no claim recorded yet.
  fs.rmSync(path.join(copy, ROOT_MARKER));
  const repo = path.join(copy, orgId, `${projectId}.git`);
  fs.rmSync(path.join(repo, REPOSITORY_MARKER));
  await platform.services.db('installation').update({ git_volume_claimed_at: null });
  const adopting = await apiOn(copy);
  try {
    expect((await httpClient(adopting.url).get('/readyz')).status).toBe(200);
    const id = await installation();
    expect(JSON.parse(fs.readFileSync(path.join(copy, ROOT_MARKER), 'utf8'))).toEqual({ installationId: id });
    expect(JSON.parse(fs.readFileSync(path.join(repo, REPOSITORY_MARKER), 'utf8'))).toMatchObject({ projectId });
  } finally {
    await adopting.close();
  }
  // Claimed once: a further unmarked folder is not adopted, even one holding the repositories.
  fs.rmSync(path.join(copy, ROOT_MARKER));
  const again = await apiOn(copy);
  try {
    expect((await httpClient(again.url).get('/readyz')).status).toBe(503);
  } finally {
    await again.close();
  }
  // A repository folder that names another project is refused, in a process that has not yet checked it.
  fs.writeFileSync(path.join(copy, ROOT_MARKER), JSON.stringify({ installationId: await installation() }));
  fs.writeFileSync(
    path.join(repo, REPOSITORY_MARKER),
    JSON.stringify({ installationId: await installation(), organizationId: orgId, projectId: 'another' }),
  );
  const swapped = await apiOn(copy);
  try {
    const read = await httpClient(swapped.url).get('/api/v2/projects/vol/files', { token });
    expect([read.status, read.text]).toEqual([503, expect.stringMatching(/Git volume/)]);
  } finally {
    await swapped.close();
  }
}, 180_000);
