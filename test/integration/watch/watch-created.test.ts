import fs from 'node:fs/promises';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { pushLayout } from '../registry/oci-clients';
import { makeImageLayout } from '../registry/oci-layout';

/**
 * Newest by image creation time on the organization's own registry (issue 49): images pushed with skopeo whose configs
 * were created in another order than they are pushed; the policy orders by the config's `created`, not by the push.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let host: string;

interface Outcome {
  workload: string;
  chosen: string | null;
  result: string;
  commit?: string | null;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  host = new URL(platform.url).host;
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  await makeProject(platform, owner, 'shop', ['globex'], {
    image: { repository: `${host}/${org.org.slug}/shop/batch`, tag: '1.0.0' },
  });
  expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
  const policy = { releases: { autoDeploy: false } };
  expect((await http.patch('/api/v2/projects/shop/policy', { token: owner, body: policy })).status).toBe(200);
}, 180_000);
afterAll(() => platform.close());

/** Pushes `tag` with its config's `created`; the subscription's outcome once the push's discovery is evaluated. */
async function push(tag: string, created: string): Promise<Outcome | undefined> {
  const layout = makeImageLayout({ 'version.txt': `${tag}\n` }, { created });
  const res = await pushLayout(layout.dir, `${host}/${org.org.slug}/shop/batch:${tag}`, `token:${owner}`);
  expect([res.ok, res.stderr]).toEqual([true, '']);
  const row = await eventually(
    async () => {
      const found = (await platform.services
        .db('watch_discoveries')
        .where({ organization_id: org.org.id, repository: 'shop/batch', tag, digest: layout.manifestDigest })
        .first()) as { status: string; outcomes: Outcome[] } | undefined;
      return found?.status === 'evaluated' ? found : null;
    },
    30_000,
    `discovery of ${tag} evaluated`,
  );
  return row.outcomes.find((o) => o.workload === 'web');
}

it("orders by the image config's created, not by when the tag was pushed", async () => {
  const sub = await http.post('/api/v2/projects/shop/watch/subscriptions', {
    token: owner,
    body: {
      workload: 'web',
      repository: { source: 'platform', name: 'shop/batch' },
      policy: { kind: 'regex', pattern: '^build-', order: 'created' },
      environments: ['dev'],
    },
  });
  expect([sub.status, sub.text]).toEqual([201, expect.any(String)]);
  expect(await push('build-a', '2026-01-05T10:00:00Z')).toEqual(
    expect.objectContaining({ chosen: 'build-a', result: 'committed' }),
  );
  // Pushed later but built earlier: the newest image stays build-a (by push time, each would have been chosen).
  for (const [tag, created] of [
    ['build-c', '2026-01-01T10:00:00Z'],
    ['build-b', '2026-01-03T10:00:00Z'],
  ] as const) {
    expect(await push(tag, created)).toEqual(expect.objectContaining({ chosen: 'build-a', result: 'not-chosen' }));
  }
  const newest = await push('build-0', '2026-02-01T00:00:00Z');
  expect(newest).toEqual(expect.objectContaining({ chosen: 'build-0', result: 'committed' }));
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  await gitCli(['checkout', '--quiet', newest!.commit!], clone.dir);
  expect(await fs.readFile(path.join(clone.dir, 'tenants/globex/dev/web/deployment.yaml'), 'utf8')).toContain(
    ':build-0',
  );
});
