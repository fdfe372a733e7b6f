import { exited, spawnScript } from '../../helpers/child-process';
import {
  startDockerRegistry,
  startThrottlingProxy,
  type RunningRegistry,
  type ThrottlingProxy,
} from '../../helpers/docker-registry';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { deploymentEnv, startApiProcess, stopPlatformProcess } from '../../helpers/platform-process';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { gitText } from '../../../src/git/git-plumbing';
import { requestHash } from '../../../src/webhooks/signature';
import { makeProject } from '../gitops/gitops-harness';
import { pushLayout } from '../registry/oci-clients';
import { makeImageLayout } from '../registry/oci-layout';
import { watchEnv } from './watch-env';

/**
 * The poll of an external registry (issue 49) survives its worker process killed (SIGKILL) in the middle: when the
 * poll found a version, recorded the discovery and is applying it (its commit waits on a held workload row), and when
 * it is still listing tags (the proxy holds the request) with nothing recorded. The platform's own worker takes over
 * (the activity heartbeats, so within seconds): the discovery is evaluated once, with exactly one commit, and nothing
 * is lost or recorded twice. Then the re-evaluation's own two cases, with the rows of a dead evaluator made by hand.
 */
let registry: RunningRegistry;
let proxy: ThrottlingProxy;
let platform: TestPlatform;

const WATCH_ENV = (proxyUrl: string) => watchEnv(new URL(proxyUrl).port);

beforeAll(async () => {
  registry = await startDockerRegistry();
  proxy = await startThrottlingProxy(registry.host);
  platform = await startTestPlatform({ env: WATCH_ENV(proxy.url) });
}, 180_000);
afterAll(async () => {
  await platform?.close();
  await proxy?.close();
  await registry?.stop();
});

/**
 * An organization whose project `slug` runs `shop/<image>:1.0.0` in dev, 1.2.0 pushed to the external registry, the
 * platform's worker stopped, and a subscription of the registry (`>=1.0.0 <2.0.0`, dev) whose poll waits for a worker.
 */
async function watchedProject(slug: string, image: string) {
  const http = httpClient(platform.url);
  const { org, members } = await makeOrg(platform, ['owner']);
  const token = members.owner!.token;
  await makeProject(platform, token, slug, ['globex'], {
    image: { repository: `${registry.host}/shop/${image}`, tag: '1.0.0' },
  });
  expect((await http.post(`/api/v2/projects/${slug}/delivery/generate`, { token, body: {} })).status).toBe(200);
  const policy = { releases: { autoDeploy: false } };
  expect((await http.patch(`/api/v2/projects/${slug}/policy`, { token, body: policy })).status).toBe(200);
  const layout = makeImageLayout({ 'version.txt': '1.2.0\n' });
  const credentials = `${registry.username}:${registry.password}`;
  const pushed = await pushLayout(layout.dir, `${registry.host}/shop/${image}:1.2.0`, credentials);
  expect([pushed.ok, pushed.stderr]).toEqual([true, '']);

  const db = platform.services.db;
  const project = (await db('projects').where({ organization_id: org.id, slug }).first('id')) as { id: string };
  const repo = platform.services.repositories.pathOf(org.id, project.id);
  const commits = async () => Number((await gitText(repo, ['rev-list', '--count', 'main'])).trim());
  const before = await commits();
  // Only a worker process runs the poll.
  await platform.stopWorker();
  const added = await http.post('/api/v2/watch/registries', {
    token,
    body: { name: 'hub', url: proxy.url, username: registry.username, password: registry.password },
  });
  expect([added.status, added.text]).toEqual([201, expect.any(String)]);
  const sub = await http.post(`/api/v2/projects/${slug}/watch/subscriptions`, {
    token,
    body: {
      workload: 'web',
      repository: { source: 'external', registry: 'hub', name: `shop/${image}` },
      policy: { kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false },
      environments: ['dev'],
    },
  });
  expect([sub.status, sub.text]).toEqual([201, expect.any(String)]);
  return { org, db, project, repo, commits, before };
}

/** Runs the poll in a worker process until `caught` holds, kills it there (SIGKILL), then starts the platform's worker. */
async function killedWhen(caught: () => Promise<boolean>, what: string, undo: () => PromiseLike<unknown> | void) {
  const worker = spawnScript('scripts/serve.ts', ['worker'], deploymentEnv(platform, WATCH_ENV(proxy.url)));
  try {
    await eventually(caught, 180_000, what);
  } finally {
    worker.kill('SIGKILL');
    expect(await exited(worker)).toBe('SIGKILL');
    await undo();
  }
  await platform.startWorker();
}

/**
 * What another worker's retry of the poll leaves: the discovery of 1.2.0 evaluated once (one audit entry), with
 * exactly one commit, the discovery's; later polls record nothing more.
 */
async function expectEvaluatedOnce(watched: Awaited<ReturnType<typeof watchedProject>>) {
  const { org, db, repo, commits, before } = watched;
  const found = (await eventually(
    async () => {
      const rows = (await db('watch_discoveries').where({ organization_id: org.id })) as {
        id: string;
        tag: string;
        status: string;
        outcomes: { result: string; commit?: string | null }[];
      }[];
      return rows.length === 1 && rows[0]!.status === 'evaluated' ? rows[0]! : null;
    },
    90_000,
    'the discovery evaluated',
  ))!;
  expect(found.tag).toBe('1.2.0');
  // Committed in the evaluation, or (a busy machine: the direct commit ran out of patience) queued to the image
  // updates workflow, which commits it: either way exactly one commit, the discovery's.
  const [outcome] = found.outcomes;
  expect(found.outcomes).toEqual([expect.objectContaining({ result: expect.stringMatching(/^(committed|queued)$/) })]);
  await eventually(async () => (await commits()) === before + 1, 90_000, 'the discovery committed');
  const commit = (await gitText(repo, ['rev-parse', 'main'])).trim();
  if (outcome!.result === 'committed') expect(outcome!.commit).toBe(commit);
  expect(await db('audit_log').where({ action: 'watch.discovery.evaluate', resource_id: found.id })).toHaveLength(1);
  const file = await gitText(repo, ['show', `${commit}:tenants/globex/dev/web/deployment.yaml`]);
  expect(file).toContain(':1.2.0');
  const lists = proxy.counts.tagLists;
  await eventually(async () => proxy.counts.tagLists >= lists + 2, 30_000, 'two more polls');
  expect(await db('watch_discoveries').where({ organization_id: org.id })).toHaveLength(1);
  expect(await commits()).toBe(before + 1);
}

describe('a registry poll whose worker is killed', () => {
  it('mid-evaluation is resumed by another worker: one discovery, evaluated once, exactly one commit', async () => {
    const watched = await watchedProject('crashw', 'web');
    const { org, db, project } = watched;
    // The poll's commit waits on the workload row held here (taken after the subscription: its foreign key check
    // would wait on it too); the poll recorded the discovery and is inside its evaluation when it is killed.
    const held = await db.transaction();
    await held('workloads').where({ project_id: project.id }).forUpdate().select('id');
    await killedWhen(
      async () => (await db('watch_discoveries').where({ organization_id: org.id, status: 'pending' })).length === 1,
      'a pending discovery',
      () => held.rollback(),
    );
    await expectEvaluatedOnce(watched);
  }, 480_000);

  it('while listing tags, before it recorded anything, is resumed: one discovery, exactly one commit', async () => {
    // The poll's tag list of this repository is held unanswered by the proxy: the worker dies inside the request.
    proxy.hold(/\/v2\/shop\/listed\/tags\/list/);
    const watched = await watchedProject('crashl', 'listed');
    await killedWhen(
      async () => proxy.held() > 0,
      'a held tag list',
      () => proxy.release(),
    );
    expect(await watched.db('watch_discoveries').where({ organization_id: watched.org.id })).toHaveLength(0);
    await expectEvaluatedOnce(watched);
  }, 480_000);
});

describe('a re-evaluation of a discovery whose evaluator died', () => {
  /** A project whose `web` workload runs 1.0.0 in dev; the image update rows of a dead evaluator are made by hand. */
  async function setUp(slug: string) {
    const { org, members } = await makeOrg(platform, ['owner']);
    const token = members.owner!.token;
    await makeProject(platform, token, slug, ['globex'], {
      image: { repository: 'registry.example.com/shop/web', tag: '1.0.0' },
    });
    const http = httpClient(platform.url);
    expect((await http.post(`/api/v2/projects/${slug}/delivery/generate`, { token, body: {} })).status).toBe(200);
    const db = platform.services.db;
    const project = (await db('projects').where({ organization_id: org.id, slug }).first('id')) as { id: string };
    const repo = platform.services.repositories.pathOf(org.id, project.id);
    const commits = async () => Number((await gitText(repo, ['rev-list', '--count', 'main'])).trim());
    const tagInDev = async () =>
      /image: \S+:(\S+)/.exec(await gitText(repo, ['show', 'main:tenants/globex/dev/web/deployment.yaml']))?.[1];
    /** The request row a dead evaluator of `key` claimed (what applyDiscovered claims under). */
    const claimed = async (work?: (id: string) => unknown) => {
      const [row] = (await db('webhook_requests')
        .insert({
          kind: 'image-update',
          request_hash: requestHash(Buffer.from(`watch\0${key}`)),
          organization_id: org.id,
          project_id: project.id,
          status: 'received',
          expires_at: new Date(Date.now() + 3_600_000),
        })
        .returning('id')) as { id: string }[];
      if (work)
        await db('webhook_requests')
          .where({ id: row!.id })
          .update({ work: JSON.stringify(work(row!.id)) });
      return row!.id;
    };
    const key = `${slug}-discovery:subscription`;
    const reEvaluate = (tag: string) =>
      platform.services.webhooks.imageUpdates.applyDiscovered({
        organizationId: org.id,
        projectId: project.id,
        workload: 'web',
        tag,
        environments: ['dev'],
        tenants: [],
        key,
        foundAt: new Date(),
        requestId: `${slug}-re-evaluation`,
      });
    return { db, commits, tagInDev, claimed, reEvaluate };
  }

  it('plans again a request it claimed but never staged: one commit', async () => {
    const { db, commits, tagInDev, claimed, reEvaluate } = await setUp('takeover-claimed');
    const before = await commits();
    const id = await claimed();
    // Not a duplicate's empty answer: the commit wait passes with the row unstaged, so the work is planned again.
    const answer = await reEvaluate('1.1.0');
    expect([answer.status, answer.duplicate]).toEqual([expect.stringMatching(/^(committed|queued)$/), undefined]);
    await eventually(async () => (await tagInDev()) === '1.1.0', 60_000, 'the update committed');
    expect(await commits()).toBe(before + 1);
    const row = (await db('webhook_requests').where({ id }).first()) as { status: string; work: unknown };
    expect([row.status, row.work]).toEqual(['committed', null]);
  }, 120_000);

  it('hands over a request it staged but never gave to Temporal, without waiting for the reconciler', async () => {
    const { db, commits, tagInDev, claimed, reEvaluate } = await setUp('takeover-staged');
    const before = await commits();
    const id = await claimed((webhookId) => ({
      webhookId,
      requestId: 'dead-evaluator',
      signedAt: Date.now(),
      updates: [{ workload: 'web', tag: '1.2.0', pairs: [{ tenant: 'globex', environment: 'dev' }] }],
    }));
    // The duplicate answers the staged request's outcome once the image updates workflow committed it.
    const answer = await reEvaluate('1.2.0');
    expect([answer.status, answer.duplicate]).toEqual(['committed', true]);
    expect(await tagInDev()).toBe('1.2.0');
    expect(await commits()).toBe(before + 1);
    expect(((await db('webhook_requests').where({ id }).first()) as { status: string }).status).toBe('committed');
  }, 120_000);
});

describe('a push to the organization registry whose API process is killed before its evaluation finished', () => {
  it('leaves a pending discovery the reconciler evaluates once: exactly one commit', async () => {
    const http = httpClient(platform.url);
    const { org, members } = await makeOrg(platform, ['owner']);
    const token = members.owner!.token;
    const host = new URL(platform.url).host;
    await makeProject(platform, token, 'crashp', ['globex'], {
      image: { repository: `${host}/${org.slug}/shop/web`, tag: '1.0.0' },
    });
    expect((await http.post('/api/v2/projects/crashp/delivery/generate', { token, body: {} })).status).toBe(200);
    const sub = await http.post('/api/v2/projects/crashp/watch/subscriptions', {
      token,
      body: {
        workload: 'web',
        repository: { source: 'platform', name: 'shop/web' },
        policy: { kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false },
        environments: ['dev'],
      },
    });
    expect([sub.status, sub.text]).toEqual([201, expect.any(String)]);
    const db = platform.services.db;
    const project = (await db('projects').where({ organization_id: org.id, slug: 'crashp' }).first('id')) as {
      id: string;
    };
    const repo = platform.services.repositories.pathOf(org.id, project.id);
    const commits = async () => Number((await gitText(repo, ['rev-list', '--count', 'main'])).trim());
    const before = await commits();

    // The push goes to an API process of its own, which evaluates the discovery after answering it; its commit waits
    // on the workload row held here (and its commit wait outlasts the test: nothing hands the update over) when the
    // process is killed with the update staged.
    const held = await db.transaction();
    await held('workloads').where({ project_id: project.id }).forUpdate().select('id');
    const api = await startApiProcess(platform, { WEBHOOK_COMMIT_WAIT: '120s' });
    try {
      const layout = makeImageLayout({ 'version.txt': '1.2.0\n' });
      const pushed = await pushLayout(
        layout.dir,
        `${new URL(api.url).host}/${org.slug}/shop/web:1.2.0`,
        `token:${token}`,
      );
      expect([pushed.ok, pushed.stderr]).toEqual([true, '']);
      await eventually(
        async () => (await db('webhook_requests').where({ organization_id: org.id }).whereNotNull('work')).length === 1,
        60_000,
        'the update staged',
      );
    } finally {
      await stopPlatformProcess(api, 'SIGKILL');
      await held.rollback();
    }
    const [left] = (await db('watch_discoveries').where({ organization_id: org.id })) as {
      id: string;
      status: string;
    }[];
    expect(left!.status).toBe('pending');

    // The worker's reconciler (every INVITATION_RECONCILE_INTERVAL) evaluates it: the re-evaluation finds the staged
    // update and hands it to the image updates workflow, which commits it once.
    expect(await platform.services.watchDiscovery.reconcile(0)).toBeGreaterThanOrEqual(1);
    const row = (await db('watch_discoveries').where({ id: left!.id }).first()) as {
      status: string;
      outcomes: { result: string }[];
    };
    // Committed within the commit wait, or (a busy machine) still queued in the workflow, which commits it.
    const result = expect.stringMatching(/^(committed|queued)$/);
    expect([row.status, row.outcomes]).toEqual(['evaluated', [expect.objectContaining({ result })]]);
    await eventually(async () => (await commits()) === before + 1, 60_000, 'the update committed');
    const file = await gitText(repo, ['show', 'main:tenants/globex/dev/web/deployment.yaml']);
    expect(file).toContain(':1.2.0');
    expect(await db('audit_log').where({ action: 'watch.discovery.evaluate', resource_id: left!.id })).toHaveLength(1);
    await platform.services.watchDiscovery.reconcile(0);
    expect(await commits()).toBe(before + 1);
  }, 300_000);
});
