import fs from 'node:fs/promises';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { pinAsRollback } from '../../helpers/pins';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { tool } from '../registry/oci-clients';
import { makeImageLayout } from '../registry/oci-layout';

/**
 * Discovery on push (issue 49): images pushed with skopeo to the platform's own registry, a semver subscription,
 * the update through the image-update webhook's governed path into real git, a pinned target skipped with its reason.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let host: string;
let tenants: Record<string, string>;

interface Outcome {
  workload: string;
  chosen: string | null;
  result: string;
  commit?: string | null;
  skipped?: { tenant: string; environment: string; reason: string; detail?: string }[];
}
interface DiscoveryRow {
  tag: string;
  digest: string;
  status: string;
  found_at: Date;
  outcomes: Outcome[];
}

const repository = () => 'shop/web';

async function push(tag: string, content = tag): Promise<string> {
  const layout = makeImageLayout({ 'version.txt': `${content}\n` });
  const res = await tool('skopeo', [
    '--insecure-policy',
    'copy',
    '--dest-tls-verify=false',
    '--dest-creds',
    `token:${owner}`,
    `oci:${layout.dir}:v1`,
    `docker://${host}/${org.org.slug}/${repository()}:${tag}`,
  ]);
  expect([res.ok, res.stderr]).toEqual([true, '']);
  return layout.manifestDigest;
}

const discovery = (tag: string, digest?: string) =>
  eventually(
    async () => {
      const row = (await platform.services
        .db('watch_discoveries')
        .where({ organization_id: org.org.id, repository: repository(), tag, ...(digest ? { digest } : {}) })
        .first()) as DiscoveryRow | undefined;
      return row?.status === 'evaluated' ? row : null;
    },
    30_000,
    `discovery of ${tag} evaluated`,
  );

async function fileAt(sha: string, file: string): Promise<string> {
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  await gitCli(['checkout', '--quiet', sha], clone.dir);
  return fs.readFile(path.join(clone.dir, file), 'utf8');
}

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  host = new URL(platform.url).host;
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  tenants = await makeProject(platform, owner, 'shop', ['acme', 'globex'], {
    image: { repository: `${host}/${org.org.slug}/shop/web`, tag: '1.0.0' },
  });
  expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
  const policy = { releases: { autoDeploy: false } };
  expect((await http.patch('/api/v2/projects/shop/policy', { token: owner, body: policy })).status).toBe(200);
  await pinAsRollback(platform, {
    organizationId: org.org.id,
    project: 'shop',
    tenantId: tenants.acme!,
    tenant: 'acme',
    environment: 'dev',
  });
  const sub = await http.post('/api/v2/projects/shop/watch/subscriptions', {
    token: owner,
    body: {
      workload: 'web',
      repository: { source: 'platform', name: repository() },
      policy: { kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false },
      environments: ['dev'],
    },
  });
  expect([sub.status, sub.text]).toEqual([201, expect.any(String)]);
}, 180_000);
afterAll(() => platform.close());

describe('discovery on push to the organization registry', () => {
  it('commits 1.10.0 (not 1.3.0-rc.1, not lexical order) and names the pinned target it skipped', async () => {
    // 1.10.0 first: the later pushes of 1.3.0-rc.1 and 1.2.0 are discovered but not chosen.
    await push('1.10.0');
    const first = await discovery('1.10.0');
    expect(first.outcomes).toEqual([
      expect.objectContaining({
        workload: 'web',
        chosen: '1.10.0',
        result: 'committed',
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        skipped: [{ tenant: 'acme', environment: 'dev', reason: 'pinned', detail: 'rolled back' }],
      }),
    ]);
    const sha = first.outcomes[0]!.commit!;
    expect(await fileAt(sha, 'tenants/globex/dev/web/deployment.yaml')).toContain(':1.10.0');
    expect(await fileAt(sha, 'tenants/acme/dev/web/deployment.yaml')).not.toContain(':1.10.0');
    expect(await fileAt(sha, 'tenants/globex/prod/web/deployment.yaml')).not.toContain(':1.10.0');

    await push('1.3.0-rc.1');
    await push('1.2.0');
    for (const tag of ['1.3.0-rc.1', '1.2.0']) {
      const later = await discovery(tag);
      expect(later.outcomes).toEqual([expect.objectContaining({ chosen: '1.10.0', result: 'not-chosen' })]);
    }
    // The update's audit entries name the commit, as the signed webhook's do; the evaluation is audited too.
    const updates = await platform.services.db('audit_log').where({ action: 'image.update', git_commit_sha: sha });
    expect(updates.length).toBeGreaterThan(0);
    const evaluations = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id, action: 'watch.discovery.evaluate' });
    expect(evaluations).toHaveLength(3);
  });

  it('digest tracking commits tag@digest, and a re-pushed mutable tag commits its new digest', async () => {
    const workload = await http.post('/api/v2/projects/shop/workloads', {
      token: owner,
      body: {
        name: 'worker',
        image: { repository: `${host}/${org.org.slug}/shop/web`, tag: '1.0.0' },
        ports: [{ name: 'http', containerPort: 8080 }],
      },
    });
    expect([workload.status, workload.text]).toEqual([201, expect.any(String)]);
    expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
    const sub = await http.post('/api/v2/projects/shop/watch/subscriptions', {
      token: owner,
      body: {
        workload: 'worker',
        repository: { source: 'platform', name: repository() },
        policy: { kind: 'digest', tag: 'stable' },
        environments: ['dev'],
        tenants: ['globex'],
      },
    });
    expect([sub.status, sub.text]).toEqual([201, expect.any(String)]);
    const file = 'tenants/globex/dev/worker/deployment.yaml';
    for (const content of ['stable one', 'stable two']) {
      const digest = await push('stable', content);
      const found = await discovery('stable', digest);
      const mine = found.outcomes.find((o) => o.workload === 'worker');
      expect(mine).toEqual(expect.objectContaining({ chosen: `stable@${digest}`, result: 'committed' }));
      expect(await fileAt(mine!.commit!, file)).toContain(`:stable@${digest}`);
    }
  });
});
