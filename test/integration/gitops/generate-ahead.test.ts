/**
 * Issue 46: a large generate's tree is built by `git fast-import` on the other core while the request validates the
 * render (src/gitops/generate-ahead.ts), and the commit uses that tree: the same files as the render, a history git
 * verifies, and the import's own scratch commit left unreferenced beside it.
 */
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { gitText, readTree } from '../../../src/git/git-plumbing';
import { makeProject } from './gitops-harness';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
}, 120_000);
afterAll(() => platform.close());

it("commits a large generate with the tree built during its validation, the render's files exactly", async () => {
  const http = httpClient(platform.url);
  const { org, members } = await makeOrg(platform, ['owner']);
  const token = members.owner!.token;
  // 12 tenants x 2 environments x one workload: 120 files of Applications, over the size that is packed.
  await makeProject(
    platform,
    token,
    'fleet',
    Array.from({ length: 12 }, (_, i) => `tenant-${i}`),
  );
  type Preview = {
    targets: { files: { path: string; content: string | null }[] }[];
    projectFiles: Preview['targets'][0]['files'];
  };
  const preview = await http.get<Preview>('/api/v2/projects/fleet/delivery/preview', { token });
  const rendered = new Map(
    [...preview.body.targets.flatMap((t) => t.files), ...preview.body.projectFiles].map((f) => [f.path, f.content]),
  );
  expect(rendered.size).toBeGreaterThan(120);

  const res = await http.post<{ commit: string }>('/api/v2/projects/fleet/delivery/generate', { token, body: {} });
  expect(res.status).toBe(200);
  const project = (await platform.services
    .db('projects')
    .where({ organization_id: org.id, slug: 'fleet' })
    .first('id')) as { id: string };
  const repo = platform.services.repositories.pathOf(org.id, project.id);
  const committed = await readTree(repo, res.body.commit);
  expect(new Map([...committed].filter(([file]) => rendered.has(file)))).toEqual(rendered);

  // The import made its tree under a scratch commit of its own, which nothing references.
  const fsck = await gitText(repo, ['fsck', '--strict', '--no-reflogs', '--dangling']);
  const dangling = [...fsck.matchAll(/^dangling commit ([0-9a-f]{40})$/gm)].map((m) => m[1]!);
  expect(dangling).toHaveLength(1);
  const tree = async (commit: string) => (await gitText(repo, ['rev-parse', `${commit}^{tree}`])).trim();
  expect(await tree(dangling[0]!)).toBe(await tree(res.body.commit));
  expect(await gitText(repo, ['log', '-1', '--format=%an', res.body.commit])).not.toContain('Delivery Platform');
});
