import fs from 'node:fs/promises';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { pinAsRollback } from '../../helpers/pins';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import {
  startDockerRegistry,
  startThrottlingProxy,
  type RunningRegistry,
  type ThrottlingProxy,
} from '../../helpers/docker-registry';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { pushLayout } from '../registry/oci-clients';
import { makeImageLayout } from '../registry/oci-layout';
import { watchEnv } from './watch-env';

/**
 * External registries (issue 49): Debian's docker-registry with htpasswd basic auth behind a real HTTP proxy that can
 * answer 429; images pushed with skopeo; the platform's poll workflow (short intervals from WATCH_* settings) finds
 * them and commits through the governed path into real git: semver without pre-releases, digest tracking of a
 * re-pushed tag, a pinned target skipped, a freeze holding the update until it ends, and a 429 backed off.
 */
let registry: RunningRegistry;
let proxy: ThrottlingProxy;
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

interface Outcome {
  workload: string;
  chosen: string | null;
  result: string;
  commit?: string | null;
  held?: { tenant: string; environment: string }[];
  skipped?: { tenant: string; environment: string; reason: string; detail?: string }[];
}
interface DiscoveryRow {
  tag: string;
  digest: string;
  status: string;
  outcomes: Outcome[];
}

async function push(repository: string, tag: string, content = tag, created?: string): Promise<string> {
  const layout = makeImageLayout({ 'version.txt': `${content}\n` }, { created });
  const res = await pushLayout(
    layout.dir,
    `${registry.host}/${repository}:${tag}`,
    `${registry.username}:${registry.password}`,
  );
  expect([res.ok, res.stderr]).toEqual([true, '']);
  return layout.manifestDigest;
}

const discoveries = (repository: string) =>
  platform.services
    .db('watch_discoveries')
    .where({ organization_id: org.org.id, source: 'external', repository }) as Promise<DiscoveryRow[]>;

/** The discovery once it has that status; on timeout the error shows what was recorded instead. */
const discovery = (repository: string, tag: string, status = 'evaluated', digest?: string) =>
  eventually(
    async () =>
      (await discoveries(repository)).find(
        (d) => d.tag === tag && d.status === status && (digest === undefined || d.digest === digest),
      ),
    40_000,
    `discovery of ${repository}:${tag} ${status}`,
  ).catch(async (err: Error) => {
    const registryRow = (await platform.services.db('watch_registries').first('id')) as { id: string };
    const described = await platform.services.temporal.workflow
      .getHandle(`watch-registry-${registryRow.id}`)
      .describe()
      .then((d) => JSON.stringify(d.raw.pendingActivities?.map((a) => a.lastFailure?.message)))
      .catch((e: Error) => e.message);
    throw new Error(
      `${err.message}; recorded: ${JSON.stringify(await discoveries(repository))}; pending activities: ${described}`,
    );
  });

async function fileAt(sha: string, file: string): Promise<string> {
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  await gitCli(['checkout', '--quiet', sha], clone.dir);
  return fs.readFile(path.join(clone.dir, file), 'utf8');
}

async function subscribe(workload: string, repository: string, policy: unknown, extra: Record<string, unknown> = {}) {
  const sub = await http.post('/api/v2/projects/shop/watch/subscriptions', {
    token: owner,
    body: { workload, repository: { source: 'external', registry: 'hub', name: repository }, policy, ...extra },
  });
  expect([sub.status, sub.text]).toEqual([201, expect.any(String)]);
}

async function addWorkload(name: string, repository: string) {
  const res = await http.post('/api/v2/projects/shop/workloads', {
    token: owner,
    body: {
      name,
      image: { repository: `${registry.host}/${repository}`, tag: '1.0.0' },
      ports: [{ name: 'http', containerPort: 8080 }],
    },
  });
  expect([res.status, res.text]).toEqual([201, expect.any(String)]);
}

beforeAll(async () => {
  registry = await startDockerRegistry();
  proxy = await startThrottlingProxy(registry.host);
  platform = await startTestPlatform({
    env: {
      ...watchEnv(new URL(proxy.url).port),
      // Two tags a page: the tag lists below are paginated (Link header).
      WATCH_TAG_PAGE_SIZE: '2',
    },
  });
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  const tenants = await makeProject(platform, owner, 'shop', ['acme', 'globex'], {
    image: { repository: `${registry.host}/shop/web`, tag: '1.0.0' },
  });
  await addWorkload('worker', 'shop/worker');
  await addWorkload('api', 'shop/api');
  await addWorkload('batch', 'shop/batch');
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
  // Wrong credentials would fail every poll; the right ones are sealed and never shown.
  const added = await http.post('/api/v2/watch/registries', {
    token: owner,
    body: { name: 'hub', url: proxy.url, username: registry.username, password: registry.password },
  });
  expect([added.status, added.text]).toEqual([201, expect.any(String)]);
  expect(added.text).not.toContain(registry.password);
  const stored = (await platform.services.db('watch_registries').first()) as { password_sealed: string };
  expect(stored.password_sealed).not.toContain(registry.password);
}, 180_000);
afterAll(async () => {
  await platform?.close();
  await proxy?.close();
  await registry?.stop();
});

describe('an external registry polled by its workflow', () => {
  it('commits 1.10.0 under >=1.0.0 <2.0.0 without pre-releases, skipping the pinned target with its reason', async () => {
    for (const tag of ['1.2.0', '1.3.0-rc.1', '1.10.0']) await push('shop/web', tag);
    await subscribe(
      'web',
      'shop/web',
      { kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false },
      { environments: ['dev'] },
    );
    const found = await discovery('shop/web', '1.10.0');
    expect(found.outcomes).toEqual([
      expect.objectContaining({
        workload: 'web',
        chosen: '1.10.0',
        result: 'committed',
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        skipped: [{ tenant: 'acme', environment: 'dev', reason: 'pinned', detail: 'rolled back' }],
      }),
    ]);
    const sha = found.outcomes[0]!.commit!;
    expect(await fileAt(sha, 'tenants/globex/dev/web/deployment.yaml')).toContain(':1.10.0');
    expect(await fileAt(sha, 'tenants/acme/dev/web/deployment.yaml')).not.toContain(':1.10.0');
    // Only chosen versions are recorded: neither the pre-release nor the lower version.
    expect((await discoveries('shop/web')).map((d) => d.tag)).toEqual(['1.10.0']);
    // Three tags at two a page: the tag list was followed over its Link header.
    const state = (await platform.services
      .db('watch_registry_repositories')
      .where({ repository: 'shop/web' })
      .first()) as {
      tags: Record<string, string>;
    };
    expect(Object.keys(state.tags).sort()).toEqual(['1.10.0', '1.2.0', '1.3.0-rc.1']);
  });

  it('digest tracking commits tag@digest, and a re-pushed tag its new digest', async () => {
    await subscribe(
      'worker',
      'shop/worker',
      { kind: 'digest', tag: 'stable' },
      { environments: ['dev'], tenants: ['globex'] },
    );
    const file = 'tenants/globex/dev/worker/deployment.yaml';
    for (const content of ['stable one', 'stable two']) {
      const digest = await push('shop/worker', 'stable', content);
      const found = await discovery('shop/worker', 'stable', 'evaluated', digest);
      expect(found.outcomes).toEqual([expect.objectContaining({ chosen: `stable@${digest}`, result: 'committed' })]);
      expect(await fileAt(found.outcomes[0]!.commit!, file)).toContain(`:stable@${digest}`);
    }
  });

  it('a freeze holds the update, which is applied when the freeze ends', async () => {
    const endsAt = Date.now() + 8_000;
    const frozen = await http.post('/api/v2/projects/shop/freezes', {
      token: owner,
      body: {
        name: 'Short',
        reason: 'hold the api',
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(endsAt).toISOString(),
        environments: ['prod'],
      },
    });
    expect([frozen.status, frozen.text]).toEqual([201, expect.any(String)]);
    await push('shop/api', '2.0.0');
    await subscribe(
      'api',
      'shop/api',
      { kind: 'semver', range: '^2.0.0' },
      { environments: ['prod'], tenants: ['globex'] },
    );
    const held = await discovery('shop/api', '2.0.0', 'held');
    expect(held.outcomes).toEqual([
      expect.objectContaining({
        chosen: '2.0.0',
        held: [{ tenant: 'globex', environment: 'prod' }],
        skipped: [expect.objectContaining({ tenant: 'globex', environment: 'prod', reason: 'frozen' })],
      }),
    ]);
    const released = await discovery('shop/api', '2.0.0', 'evaluated');
    expect(Date.now()).toBeGreaterThanOrEqual(endsAt);
    expect(released.outcomes).toEqual([expect.objectContaining({ result: 'committed', held: [] })]);
    expect(await fileAt(released.outcomes[0]!.commit!, 'tenants/globex/prod/api/deployment.yaml')).toContain(':2.0.0');
  }, 120_000);

  it('newest by image creation time reads each config once and commits the newest image, not the last pushed', async () => {
    // Pushed in this order: neither the push order, the first sighting nor the alphabet picks build-a.
    const images = [
      ['build-a', '2026-01-05T10:00:00Z'],
      ['build-c', '2026-01-01T10:00:00Z'],
      ['build-b', '2026-01-03T10:00:00.123456789Z'],
    ] as const;
    const digests = new Map<string, string>();
    for (const [tag, created] of images) digests.set(tag, await push('shop/batch', tag, tag, created));
    await subscribe(
      'batch',
      'shop/batch',
      { kind: 'regex', pattern: '^build-', order: 'created' },
      { environments: ['dev'], tenants: ['globex'] },
    );
    const found = await discovery('shop/batch', 'build-a');
    expect(found.outcomes).toEqual([expect.objectContaining({ chosen: 'build-a', result: 'committed' })]);
    expect(await fileAt(found.outcomes[0]!.commit!, 'tenants/globex/dev/batch/deployment.yaml')).toContain(':build-a');
    const state = () =>
      platform.services
        .db('watch_registry_repositories')
        .where({ repository: 'shop/batch' })
        .first('created') as Promise<{
        created: Record<string, string | null>;
      }>;
    expect((await state()).created).toEqual({
      [digests.get('build-a')!]: '2026-01-05T10:00:00.000Z',
      [digests.get('build-c')!]: '2026-01-01T10:00:00.000Z',
      [digests.get('build-b')!]: '2026-01-03T10:00:00.123Z',
    });
    // Later polls read no config again (a HEAD per tag only), and a newer image pushed later is the next choice.
    const configGets = () => proxy.requested.filter((r) => /^GET \/v2\/shop\/batch\/(blobs|manifests)\//.test(r));
    const before = configGets().length;
    expect(before).toBe(6);
    const polled = proxy.requested.filter((r) => r.startsWith('GET /v2/shop/batch/tags/list')).length;
    await eventually(
      async () => proxy.requested.filter((r) => r.startsWith('GET /v2/shop/batch/tags/list')).length >= polled + 4,
      20_000,
      'two more polls',
    );
    expect(configGets()).toHaveLength(before);
    const newest = await push('shop/batch', 'build-0', 'build-0', '2026-02-01T00:00:00Z');
    const next = await discovery('shop/batch', 'build-0', 'evaluated', newest);
    expect(next.outcomes).toEqual([expect.objectContaining({ chosen: 'build-0', result: 'committed' })]);
    expect(configGets()).toHaveLength(before + 2);
  }, 120_000);

  it('backs off while the registry answers 429 with Retry-After, then resumes', async () => {
    proxy.throttle.retryAfterSeconds = 1;
    proxy.throttle.on = true;
    const from = proxy.throttledAt.length;
    await eventually(async () => proxy.throttledAt.length >= from + 1, 20_000, 'a throttled poll');
    await new Promise((r) => setTimeout(r, 4_000));
    proxy.throttle.on = false;
    // A poll's 429s come together (its lanes in flight); the next poll waits at least Retry-After (1 s), never the
    // 500 ms interval, and longer as the backoff grows.
    const times = proxy.throttledAt.slice(from);
    const polls = times.filter((t, i) => i === 0 || t - times[i - 1]! > 300);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < polls.length; i += 1) expect(polls[i]! - polls[i - 1]!).toBeGreaterThanOrEqual(1000);
    // At most one 429 per lane a poll: its repositories, the concurrency (4) at most.
    const repositories = await platform.services.db('watch_subscriptions').countDistinct('repository as n').first();
    expect(times.length).toBeLessThanOrEqual(polls.length * Math.min(4, Number(repositories!.n)));
    await push('shop/web', '1.11.0');
    const found = await discovery('shop/web', '1.11.0');
    expect(found.outcomes).toEqual([expect.objectContaining({ chosen: '1.11.0', result: 'committed' })]);
  }, 120_000);
});
