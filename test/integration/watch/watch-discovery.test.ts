import fs from 'node:fs/promises';
import path from 'node:path';
import { controllerSimulator, type ControllerSimulator } from '../../helpers/controller-simulator';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { pinAsRollback } from '../../helpers/pins';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { pushLayout } from '../registry/oci-clients';
import { cliRunner } from '../cli/cli-harness';
import { makeImageLayout } from '../registry/oci-layout';
import { controllerClient } from '../webhooks/controller-client';

/**
 * Discovery on push (issue 49): images pushed with skopeo to the platform's own registry, a semver subscription,
 * the update through the image-update webhook's governed path into real git, a pinned target skipped with its reason;
 * the discoveries as the API shows them (verified by the controller simulator, syncing, replaced, pinned), and the
 * notifications they raise.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let host: string;
let tenants: Record<string, string>;
let sim: ControllerSimulator;

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
  const res = await pushLayout(layout.dir, `${host}/${org.org.slug}/${repository()}:${tag}`, `token:${owner}`);
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
  const key = await http.post<{ key: string }>('/api/v2/projects/shop/api-keys', {
    token: owner,
    body: { name: 'controller', scopes: ['read'] },
  });
  expect(key.status).toBe(201);
  sim = controllerSimulator({
    cloneUrl: cloneUrl(platform, org.org.slug, 'shop', key.body.key),
    baseUrl: platform.url,
    controllerToken: await controllerClient(platform.url).tokenFor(owner),
  });
  await sim.refresh();
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
afterAll(async () => {
  await sim.close();
  await platform.close();
});

interface DiscoveryItem {
  tag: string;
  status: string;
  outcomes: {
    workload: string;
    chosen: string | null;
    result: string;
    commit: string | null;
    targets: {
      tenant: string;
      environment: string;
      state: string;
      detail?: string;
      commit?: string | null;
      verifiedAt?: string;
    }[];
    recordedOnly: string[];
  }[];
}
const discoveries = (query = '') =>
  http.get<{ items: DiscoveryItem[]; nextCursor: string | null; error: string }>(
    `/api/v2/projects/shop/watch/discoveries${query}`,
    { token: owner },
  );

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

  it('lists the discoveries newest first, each target verified, syncing or why not; pages; refuses a bad filter', async () => {
    await sim.refresh();
    const page = await discoveries('?workload=web');
    expect(page.status).toBe(200);
    expect(page.body.items.map((d) => [d.tag, d.status])).toEqual([
      ['1.2.0', 'evaluated'],
      ['1.3.0-rc.1', 'evaluated'],
      ['1.10.0', 'evaluated'],
    ]);
    const found = page.body.items[2]!.outcomes;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ workload: 'web', chosen: '1.10.0', result: 'committed', recordedOnly: ['prod'] });
    // The controller synced globex's dev to the commit and reported it Healthy; acme's dev is pinned.
    expect(found[0]!.targets).toEqual([
      { tenant: 'acme', environment: 'dev', state: 'pinned', detail: 'rolled back' },
      {
        tenant: 'globex',
        environment: 'dev',
        state: 'verified',
        commit: found[0]!.commit,
        verifiedAt: expect.stringMatching(/^20/),
      },
    ]);
    expect(page.body.items[0]!.outcomes).toEqual([
      expect.objectContaining({ chosen: '1.10.0', result: 'not-chosen', targets: [] }),
    ]);

    const first = await discoveries('?workload=web&limit=2');
    expect(first.body.items.map((d) => d.tag)).toEqual(['1.2.0', '1.3.0-rc.1']);
    const rest = await discoveries(`?workload=web&limit=2&cursor=${first.body.nextCursor}`);
    expect([rest.body.items.map((d) => d.tag), rest.body.nextCursor]).toEqual([['1.10.0'], null]);

    const unknown = await discoveries('?workload=nope');
    expect([unknown.status, unknown.body.error]).toEqual([400, 'workload: nope is not a workload of project shop']);
    expect((await discoveries('?cursor=bm90LWEtY3Vyc29y')).status).toBe(400);
    const outsider = (await makeOrg(platform, ['owner'])).members.owner!.token;
    expect((await http.get('/api/v2/projects/shop/watch/discoveries', { token: outsider })).status).toBe(404);
  });

  it('notifies the version found and the target it could not update (in-app)', async () => {
    await platform.services.notifications.reconcileDispatchers();
    const inbox = await eventually(async () => {
      const res = await http.get<{ items: { event: string; payload: Record<string, unknown> }[] }>(
        '/api/v2/notifications?limit=100',
        { token: owner },
      );
      const mine = res.body.items.filter((n) => n.event.startsWith('image.') && n.payload.name === 'shop/web:1.10.0');
      if (mine.length < 2) throw new Error(`${mine.length} image notifications of 1.10.0 yet`);
      return mine;
    });
    expect(inbox.find((n) => n.event === 'image.discovered')!.payload).toMatchObject({
      workload: 'web',
      result: 'committed',
      updated: 'globex/dev',
    });
    expect(inbox.find((n) => n.event === 'image.update.blocked')!.payload).toMatchObject({
      workload: 'web',
      reason: 'acme/dev pinned (rolled back)',
    });
    // Versions the policy did not choose are recorded, not notified.
    const all = await http.get<{ items: { event: string; payload: Record<string, unknown> }[] }>(
      '/api/v2/notifications?limit=100',
      { token: owner },
    );
    expect(all.body.items.filter((n) => n.payload.name === 'shop/web:1.2.0')).toEqual([]);
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
    const commits: string[] = [];
    for (const content of ['stable one', 'stable two']) {
      const digest = await push('stable', content);
      const found = await discovery('stable', digest);
      const mine = found.outcomes.find((o) => o.workload === 'worker');
      expect(mine).toEqual(expect.objectContaining({ chosen: `stable@${digest}`, result: 'committed' }));
      expect(await fileAt(mine!.commit!, file)).toContain(`:stable@${digest}`);
      commits.push(mine!.commit!);
    }
    // No controller looked in between: the first digest's commit was replaced before it was verified.
    const listed = await discoveries('?workload=worker');
    expect(
      listed.body.items.map((d) => d.outcomes.map((o) => [o.workload, o.targets.map((t) => [t.state, t.commit])])),
    ).toEqual([[['worker', [['syncing', commits[1]]]]], [['worker', [['replaced', commits[0]]]]]]);
  });
});

describe('the CLI', () => {
  let cli: ReturnType<typeof cliRunner>;
  beforeAll(() => (cli = cliRunner(platform.url)));
  afterAll(() => cli.close());
  const run = (args: string[]) =>
    cli.run(['watch', ...args], { env: { DELIVERY_TOKEN: owner, DELIVERY_PROJECT: 'shop' } });

  it('delivery watch add, list and remove a subscription; one policy exactly', async () => {
    const two = await run([
      'add',
      '--workload',
      'worker',
      '--repository',
      'shop/other',
      '--semver',
      '>=1',
      '--digest',
      'x',
      '--env',
      'dev',
    ]);
    expect([two.code, two.stderr]).toEqual([2, 'error: give exactly one policy: --semver, --regex or --digest\n']);
    const added = await run([
      'add',
      '--workload',
      'worker',
      '--repository',
      'shop/other',
      '--regex',
      '^b([0-9]+)$',
      '--order',
      'numeric',
      '--env',
      'dev,prod',
      '--tenants',
      'globex',
    ]);
    expect([added.code, added.stderr]).toEqual([0, 'worker follows shop/other (regex ^b([0-9]+)$ numeric)\n']);
    const id = added.stdout.trim();
    const table = await run(['list']);
    expect(table.code).toBe(0);
    const line = table.stdout.split('\n').find((l) => l.startsWith(id))!;
    expect(line.split(/\s{2,}/)).toEqual([
      id,
      'worker',
      'image',
      'shop/other',
      'regex ^b([0-9]+)$ numeric',
      'dev,prod',
      'globex',
    ]);
    const removed = await run(['remove', id]);
    expect([removed.code, removed.stderr]).toEqual([0, `subscription ${id} deleted\n`]);
    const json = await run(['list', '-o', 'json']);
    expect((JSON.parse(json.stdout) as { items: { id: string }[] }).items.map((s) => s.id)).not.toContain(id);
  });

  it('delivery watch discoveries prints a row per target with its state, and the answer as JSON', async () => {
    const table = await run(['discoveries', '--workload', 'web']);
    expect(table.code).toBe(0);
    const rows = table.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s{2,}/).slice(1));
    // The worker's digest tracking pushed `stable` twice since: web's policy did not choose it.
    expect(rows).toEqual([
      ['shop/web:stable', 'web', 'image', 'not-chosen', '-', '-'],
      ['shop/web:stable', 'web', 'image', 'not-chosen', '-', '-'],
      ['shop/web:1.2.0', 'web', 'image', 'not-chosen', '-', '-'],
      ['shop/web:1.3.0-rc.1', 'web', 'image', 'not-chosen', '-', '-'],
      ['shop/web:1.10.0', 'web', 'image', 'committed', 'acme/dev', 'pinned', 'rolled back'],
      ['shop/web:1.10.0', 'web', 'image', 'committed', 'globex/dev', 'verified'],
    ]);
    const json = await run(['discoveries', '--workload', 'web', '--limit', '1', '-o', 'json']);
    const answer = JSON.parse(json.stdout) as { items: { tag: string }[]; nextCursor: string | null };
    expect([answer.items.map((d) => d.tag), typeof answer.nextCursor]).toEqual([['stable'], 'string']);
  });
});

describe('after a crash', () => {
  it('a discovery its push recorded but no process evaluated is evaluated by the reconciler, once', async () => {
    // What a process killed between the push's commit and the evaluation leaves: the row, pending (found a minute ago).
    const db = platform.services.db;
    const pushed = (await db('watch_discoveries')
      .where({ organization_id: org.org.id, repository: repository(), tag: '1.10.0' })
      .first('digest')) as { digest: string };
    const [left] = (await db('watch_discoveries')
      .insert({
        organization_id: org.org.id,
        repository: repository(),
        tag: '1.10.0',
        digest: pushed.digest,
        found_at: new Date(Date.now() - 60_000),
      })
      .returning('id')) as { id: string }[];
    expect(await platform.services.watchDiscovery.reconcile(30_000)).toBeGreaterThanOrEqual(1);
    const row = (await db('watch_discoveries').where({ id: left!.id }).first()) as DiscoveryRow;
    expect(row.status).toBe('evaluated');
    // Both subscriptions of the repository judged it: web's policy chooses it, the worker's digest tracking does not.
    const judged = row.outcomes.map((o) => [o.workload, o.chosen === '1.10.0', o.result === 'not-chosen']);
    expect(judged.sort()).toEqual([
      ['web', true, false],
      ['worker', false, true],
    ]);
    const evaluations = await db('audit_log').where({ action: 'watch.discovery.evaluate', resource_id: left!.id });
    expect(evaluations).toHaveLength(1);
    // Evaluated already: a second pass leaves it alone.
    await platform.services.watchDiscovery.reconcile(30_000);
    expect(await db('audit_log').where({ action: 'watch.discovery.evaluate', resource_id: left!.id })).toHaveLength(1);
  });
});
