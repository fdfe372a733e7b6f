import fs from 'node:fs';
import path from 'node:path';
import { controllerSimulator, type ControllerSimulator } from '../../helpers/controller-simulator';
import { makeOrg } from '../../helpers/fixtures';
import { harnessState } from '../../helpers/harness-state';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import {
  deploymentEnv,
  restartPlatformProcess,
  startPlatformProcess,
  stopPlatformProcess,
  type PlatformProcess,
} from '../../helpers/platform-process';
import { startRoundRobinProxy } from '../../helpers/round-robin-proxy';
import { startS3Server, type S3Server } from '../../helpers/s3-server';
import { scratchDir } from '../../helpers/scratch-dir';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { verifyAudit } from '../../../src/admin/operator-commands';
import { FINAL_STATUSES } from '../../../src/releases/release-workflow-contract';
import { gitText } from '../../../src/git/git-plumbing';
import { createRepositoryStore } from '../../../src/git/repository-store';
import { cloneUrl, makeProject } from '../gitops/gitops-harness';
import { controllerClient } from '../webhooks/controller-client';
import { artifactManifest, EMPTY_CONFIG, ociClient } from '../registry/oci-protocol';
import { sha } from '../registry/oci-layout';
import { DIGEST, shapeBHeaders } from '../webhooks/webhook-signing';

/**
 * Issue 34 item 4: machines simulated by processes. Two APIs and two workers in split mode (`scripts/serve.ts api|
 * worker`, real child processes), each with a DATA_DIR of its own, sharing only GIT_REPOSITORIES_DIR and a bucket of
 * a real local S3 server (moto), one PostgreSQL database and the Temporal task queues, behind a load balancer that
 * routes each request to the next API in turn. Releases, signed image updates out of order to both APIs and an OCI
 * push and pull cross the processes while a worker is SIGKILLed and an API SIGTERMed, both restarted.
 */
let s3: S3Server;
let lb: Awaited<ReturnType<typeof startRoundRobinProxy>>;
let platform: TestPlatform;
let sharedGit: string;
const apis: PlatformProcess[] = [];
const workers: PlatformProcess[] = [];
let owner: string;
let orgSlug: string;
let secret: string;
let tenants: Record<string, string>;
let controllerToken: string;
let sim: ControllerSimulator;
let repo: string;

const TENANTS = ['acme', 'globex', 'initech'];
const ENVIRONMENTS = ['dev', 'prod'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: string;
  commit: string | null;
  statusUrl?: string;
  error?: string;
}

beforeAll(async () => {
  s3 = await startS3Server();
  await s3.createBucket('machines');
  lb = await startRoundRobinProxy();
  sharedGit = scratchDir('shared-git-');
  const storage = { GIT_REPOSITORIES_DIR: sharedGit, ...s3.settings('machines', 'deployment/') };
  // The deployment's database, keys and task queues; it takes no requests (the load balancer routes to the spawned
  // APIs only) and runs no worker. Its PUBLIC_URL is the load balancer's, like every process's.
  platform = await startTestPlatform({ worker: false, env: { ...storage, PUBLIC_URL: lb.url } });
  const machine = (name: string) =>
    deploymentEnv(platform, {
      ...storage,
      DATA_DIR: path.join(harnessState().workDir, `machine-${platform.config.temporal.taskQueuePrefix}${name}`),
      WEBHOOK_COMMIT_WAIT: '1s',
      SHUTDOWN_GRACE: '5s',
    });
  apis.push(...(await Promise.all(['api-1', 'api-2'].map((n) => startPlatformProcess('api', machine(n))))));
  workers.push(...(await Promise.all(['worker-1', 'worker-2'].map((n) => startPlatformProcess('worker', machine(n))))));
  lb.route(apis.map((a) => a.url));

  const org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  orgSlug = org.org.slug;
  const http = httpClient(lb.url);
  tenants = await makeProject(lb, owner, 'shop', TENANTS);
  const api = await http.post('/api/v2/projects/shop/workloads', {
    token: owner,
    body: { name: 'api', image: { repository: 'registry.example.com/shop/api', tag: '3.0.0' } },
  });
  expect(api.status).toBe(201);
  const settings = await http.put<{ secret: string }>('/api/v2/projects/shop/webhook-settings', {
    token: owner,
    body: { autoUpdateEnvironments: ['dev'] },
  });
  expect(settings.status).toBe(201);
  secret = settings.body.secret;
  const key = await http.post<{ key: string }>('/api/v2/projects/shop/api-keys', {
    token: owner,
    body: { name: 'controller', scopes: ['read'] },
  });
  expect(key.status).toBe(201);
  controllerToken = await controllerClient(lb.url).tokenFor(owner);
  sim = controllerSimulator({
    cloneUrl: cloneUrl(lb, orgSlug, 'shop', key.body.key),
    baseUrl: lb.url,
    controllerToken,
  });
  expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
  expect((await sim.refresh()).every((r) => r.status === 200)).toBe(true);
  const project = (await platform.services
    .db('projects')
    .where({ organization_id: org.org.id, slug: 'shop' })
    .first('id')) as { id: string };
  repo = platform.services.repositories.pathOf(org.org.id, project.id);
}, 300_000);

afterAll(async () => {
  await sim?.close();
  await Promise.all([...apis, ...workers].map((p) => stopPlatformProcess(p, 'SIGKILL')));
  await lb?.close();
  await platform?.close();
  await s3?.stop();
});

/** A shape B update of workload `api` in dev for every tenant, signed at `signedAt`. */
function imageUpdate(tag: string, signedAt: Date) {
  const body = JSON.stringify({
    image: 'registry.example.com/shop/api',
    tag,
    digest: DIGEST,
    project: 'shop',
    workload: 'api',
    environments: ['dev'],
    tenants: ['*'],
    timestamp: signedAt.toISOString(),
  });
  return { body, headers: shapeBHeaders(secret, body) };
}

/**
 * Sends signed bytes to an API, and the same bytes to the other one when no answer came (its process stopped) or the
 * first is still in progress: a CI job's retry. Answers the first 2xx.
 */
async function sendSigned(first: number, u: { body: string; headers: Record<string, string> }) {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const target = apis[(first + attempt) % apis.length]!;
    const res = await httpClient(target.url)
      .post<Answer>('/api/v1/webhooks/image-update', { rawBody: u.body, headers: u.headers })
      .catch(() => null);
    if (res && (res.status === 200 || res.status === 202)) return res;
    if (res && res.status !== 409 && res.status < 500) throw new Error(`image update: ${res.status} ${res.text}`);
    await sleep(500);
  }
  throw new Error('image update never answered');
}

/** The tag of workload `api` for `tenant` in dev at `rev`. */
async function apiTagAt(rev: string, tenant: string): Promise<string> {
  const yaml = await gitText(repo, ['show', `${rev}:tenants/${tenant}/dev/api/deployment.yaml`]);
  return /image: \S+:(\S+)/.exec(yaml)?.[1] ?? '';
}

const patch = (tag: string) => Number(tag.split('.').at(-1));

describe('two APIs and two workers sharing only the Git volume and the bucket', () => {
  it('keep every release final with one commit, the newest tag, the registry and the audit chain', async () => {
    const http = httpClient(lb.url);
    const signedFrom = Date.now() - 60_000;
    const updates = [5, 2, 8, 1, 7, 3, 6, 4].map((n) => ({
      n,
      ...imageUpdate(`3.0.${n}`, new Date(signedFrom + n * 1000)),
    }));
    const targets = TENANTS.flatMap((tenant) => ENVIRONMENTS.map((environment) => ({ tenant, environment })));

    const releasesMade = Promise.all(
      targets.map(async (t, i) => {
        const res = await http.post<{ id: string; status: string }>('/api/v2/projects/shop/releases', {
          token: owner,
          body: {
            environment: t.environment,
            tenantId: tenants[t.tenant],
            title: `web 1.1.${i}`,
            changes: [{ workload: 'web', tag: `1.1.${i}` }],
          },
        });
        expect([res.status, res.text]).toEqual([201, expect.any(String)]);
        return { ...t, id: res.body.id, tag: `1.1.${i}` };
      }),
    );
    const imageAnswers = Promise.all(updates.map((u, i) => sendSigned(i % 2, u)));
    const layer = `layer of the machines test ${Date.now()}`;
    const ociRepo = `${orgSlug}/charts/machines`;
    const pushed = (async () => {
      const pusher = ociClient(apis[0]!.url, owner);
      expect((await pusher.pushBlob(ociRepo, layer)).status).toBe(201);
      expect((await pusher.pushBlob(ociRepo, '{}')).status).toBe(201);
      const manifest = artifactManifest(layer, 'application/vnd.example.machines');
      expect((await pusher.pushManifest(ociRepo, 'v1', manifest)).status).toBe(201);
      return manifest;
    })();
    // Mid-flight: a worker killed outright and started again, an API stopped for a rolling deploy and started again.
    const chaos = (async () => {
      await sleep(1_500);
      expect(await stopPlatformProcess(workers[0]!, 'SIGKILL')).toBe('SIGKILL');
      workers[0] = await restartPlatformProcess(workers[0]!);
      expect(await stopPlatformProcess(apis[1]!, 'SIGTERM')).toBe(0);
      apis[1] = await restartPlatformProcess(apis[1]!);
    })();

    const releases = await releasesMade;
    const answers = await imageAnswers;
    const manifest = await pushed;
    await chaos;

    // The layer pushed through one API is pulled through the other (blobs in the bucket, the manifest in PostgreSQL).
    const puller = ociClient(apis[1]!.url, owner);
    const pulled = await puller.call('GET', `/v2/${ociRepo}/manifests/v1`, undefined, {
      Accept: 'application/vnd.oci.image.manifest.v1+json',
    });
    expect([pulled.status, JSON.parse(pulled.bytes.toString()) as unknown]).toEqual([200, manifest]);
    const blob = await puller.call('GET', `/v2/${ociRepo}/blobs/${sha(layer)}`);
    expect([blob.status, blob.bytes.toString()]).toEqual([200, layer]);
    expect((await puller.call('GET', `/v2/${ociRepo}/blobs/${EMPTY_CONFIG.digest}`)).bytes.toString()).toBe('{}');

    // Every image update finishes committed (200 at once, or 202 and its status URL says so in the end).
    for (const a of answers) {
      if (a.status === 200) continue;
      await eventually(
        async () => (await http.get<{ status: string }>(a.body.statusUrl!)).body.status === 'committed',
        240_000,
        `${a.body.statusUrl} committed`,
      );
    }

    // The controller syncs what changed (its unanswered reports resent) until every release is final.
    const final = await eventually(
      async () => {
        await sim.refresh();
        await sim.resendUnanswered();
        const now = await Promise.all(
          releases.map(
            async (r) =>
              (await http.get<{ status: string; commitSha: string }>(`/api/v2/releases/${r.id}`, { token: owner }))
                .body,
          ),
        );
        return now.every((r) => (FINAL_STATUSES as readonly string[]).includes(r.status)) ? now : null;
      },
      360_000,
      'every release final',
    );
    expect(final.map((r) => r.status)).toEqual(releases.map(() => 'Healthy'));

    // One history: one root commit.
    expect((await gitText(repo, ['rev-list', '--max-parents=0', 'main'])).trim().split('\n')).toHaveLength(1);
    // Each release in exactly one commit: its target's web folder changed by the generate and by that commit only.
    const shas = final.map((r) => r.commitSha);
    expect(new Set(shas).size).toBe(releases.length);
    for (const [i, r] of releases.entries()) {
      const touching = (
        await gitText(repo, ['log', '--format=%H', 'main', '--', `tenants/${r.tenant}/${r.environment}/web`])
      )
        .trim()
        .split('\n');
      expect({ release: r.tag, commits: touching.length, last: touching[0] }).toEqual({
        release: r.tag,
        commits: 2,
        last: shas[i],
      });
    }
    // The newest signed tag kept, and along history the tag of each target never went backwards.
    for (const tenant of TENANTS) {
      expect(await apiTagAt('main', tenant)).toBe('3.0.8');
      const commits = (
        await gitText(repo, ['log', '--reverse', '--format=%H', 'main', '--', `tenants/${tenant}/dev/api`])
      )
        .trim()
        .split('\n');
      const tags = await Promise.all(commits.map((c) => apiTagAt(c, tenant)));
      expect(tags.map(patch)).toEqual([...tags.map(patch)].sort((a, b) => a - b));
    }

    // Nothing of the shared state under any process's own DATA_DIR.
    const dataDirs = [...apis, ...workers].map((p) => p.env.DATA_DIR!);
    expect(new Set(dataDirs).size).toBe(4);
    for (const dir of [...dataDirs, platform.config.dataDir]) {
      expect({
        dir,
        git: fs.existsSync(path.join(dir, 'git')),
        blobs: fs.existsSync(path.join(dir, 'registry', 'blobs')),
      }).toEqual({
        dir,
        git: false,
        blobs: false,
      });
    }
    expect(fs.existsSync(repo) && repo.startsWith(sharedGit)).toBe(true);

    // `npm run admin -- verify-audit`: unbroken chains, every commit audited.
    const report = await verifyAudit({
      db: platform.services.db,
      audit: platform.services.audit,
      repositories: createRepositoryStore(sharedGit),
    });
    expect(report).toEqual(expect.objectContaining({ ok: true, unauditedCommits: [] }));
    // No sticky routing: both APIs answered requests through the load balancer.
    expect([...lb.served().values()].every((n) => n > 0) && lb.served().size === 2).toBe(true);
  }, 600_000);
});
