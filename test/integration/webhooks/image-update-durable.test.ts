import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { holdRepositoryLock, waitingBackend } from '../../helpers/repository-lock';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { gitText } from '../../../src/git/git-plumbing';
import { makeProject } from '../gitops/gitops-harness';
import { startApiProcess, stopPlatformProcess as stop } from '../../helpers/platform-process';
import { DIGEST, shapeBHeaders } from './webhook-signing';

/**
 * Image updates are durable before they are acknowledged (issue 34): API processes of their own (scripts/serve.ts
 * api, real child processes) sharing this file's database, repositories and Temporal task queues, with the workers
 * stopped, stopped processes and two APIs taking the updates of one target.
 */
let platform: TestPlatform;
let secret: string;
let repo: string;
let projectId: string;
const URL_PATH = '/api/v1/webhooks/image-update';
const WORKLOADS = ['w0', 'w1', 'w2', 'w3'];
const TENANTS = ['acme', 'globex'];
/** The spawned APIs answer 202 after this long; a resend past it and the in-flight slack (5 s) is after a failure. */
const COMMIT_WAIT_MS = 300;

interface Answer {
  requestId: string;
  status: string;
  commit: string | null;
  statusUrl?: string;
  skipped: { workload?: string; tenant: string; environment: string; reason: string }[];
  error?: string;
}

/** A shape B body for one workload and tenant in dev, signed at `signedAt`. */
function update(workload: string, tenant: string, tag: string, signedAt = new Date()) {
  const body = JSON.stringify({
    image: `registry.example.com/shop/${workload}`,
    tag,
    digest: DIGEST,
    project: 'shop',
    workload,
    environments: ['dev'],
    tenants: [tenant],
    timestamp: signedAt.toISOString(),
  });
  return { body, headers: shapeBHeaders(secret, body) };
}

const post = (url: string, u: { body: string; headers: Record<string, string> }) =>
  httpClient(url).post<Answer>(URL_PATH, { rawBody: u.body, headers: u.headers });

const startApi = (env: Record<string, string> = {}) =>
  startApiProcess(platform, { WEBHOOK_COMMIT_WAIT: `${COMMIT_WAIT_MS}ms`, ...env });
/** An API that hands every update to its project's workflow (WEBHOOK_DIRECT_COMMIT=false): the outbox path alone. */
const startHandingApi = () => startApi({ WEBHOOK_DIRECT_COMMIT: 'false' });

/** Who made the commit at the head of main: the image-update workflow's id, or `direct-<request>` for an API. */
const headWriter = () => gitText(repo, ['log', '-1', '--format=%(trailers:key=Audit-Workflow-Id,valueonly)', 'main']);

/** The tag the repository's head sets for a workload of a tenant in dev. */
async function tagAt(workload: string, tenant: string): Promise<string> {
  const yaml = await gitText(repo, ['show', `main:tenants/${tenant}/dev/${workload}/deployment.yaml`]);
  return /image: \S+:(\S+)/.exec(yaml)?.[1] ?? '';
}

async function finished(statusUrl: string) {
  return eventually(
    async () => {
      const res = await httpClient(platform.url).get<{ status: string; commit: string | null; result: Answer }>(
        statusUrl,
      );
      return ['committed', 'failed'].includes(res.body.status) ? res.body : null;
    },
    90_000,
    `${statusUrl} finished`,
  );
}

beforeAll(async () => {
  platform = await startTestPlatform({ env: { WEBHOOK_COMMIT_WAIT: '1s' } });
  const { org, members } = await makeOrg(platform, ['owner']);
  const token = members.owner!.token;
  const http = httpClient(platform.url);
  await makeProject(platform, token, 'shop', TENANTS);
  for (const name of WORKLOADS) {
    const res = await http.post('/api/v2/projects/shop/workloads', {
      token,
      body: { name, image: { repository: `registry.example.com/shop/${name}`, tag: '1.0.0' } },
    });
    expect(res.status).toBe(201);
  }
  expect((await http.post('/api/v2/projects/shop/delivery/generate', { token, body: {} })).status).toBe(200);
  const settings = await http.put<{ secret: string }>('/api/v2/projects/shop/webhook-settings', {
    token,
    body: { autoUpdateEnvironments: ['dev'] },
  });
  expect(settings.status).toBe(201);
  secret = settings.body.secret;
  const project = (await platform.services
    .db('projects')
    .where({ organization_id: org.id, slug: 'shop' })
    .first('id')) as { id: string };
  projectId = project.id;
  repo = platform.services.repositories.pathOf(org.id, project.id);
}, 180_000);
afterAll(() => platform.close());

describe('an API process stopped with a backlog', () => {
  it('commits all 8 updates it answered 202 to after SIGTERM, once workers run again', async () => {
    await platform.stopWorker();
    const api = await startHandingApi();
    const sent = WORKLOADS.flatMap((w) => TENANTS.map((t) => ({ w, t, tag: `8.0.${w.slice(1)}-${t}` })));
    let answers: Awaited<ReturnType<typeof post>>[] = [];
    try {
      answers = await Promise.all(sent.map((s) => post(api.url, update(s.w, s.t, s.tag))));
      expect(answers.map((a) => [a.status, a.body.status])).toEqual(sent.map(() => [202, 'queued']));
    } finally {
      expect(await stop(api, 'SIGTERM')).toBe(0);
      await platform.startWorker();
    }
    for (const a of answers) {
      const done = await finished(a.body.statusUrl!);
      expect([done.status, done.result.skipped]).toEqual(['committed', []]);
      expect(done.commit).toMatch(/^[0-9a-f]{40}$/);
    }
    for (const s of sent) expect(await tagAt(s.w, s.t)).toBe(s.tag);
  }, 240_000);
});

describe('a resend of the same signed bytes', () => {
  it('after the API that queued it was killed answers 409 with its recorded outcome, and commits once', async () => {
    await platform.stopWorker();
    const api = await startHandingApi();
    const u = update('w0', 'acme', '9.1.0');
    let first: Awaited<ReturnType<typeof post>>;
    try {
      first = await post(api.url, u);
      expect([first.status, first.body.status]).toEqual([202, 'queued']);
    } finally {
      expect(await stop(api, 'SIGKILL')).toBe('SIGKILL');
    }
    // The same bytes again are a duplicate (WH-3): 409, with the recorded outcome so far (queued, its status URL).
    const early = await post(platform.url, u);
    expect([early.status, early.body.error, early.body.status, early.body.statusUrl]).toEqual([
      409,
      'duplicate webhook request',
      'queued',
      first.body.statusUrl,
    ]);
    // A resend while it is still queued waits for its outcome as the first request would have (the commit wait): once
    // a worker commits it, the 409 carries the commit, not "queued".
    const patient = await startApi({ WEBHOOK_COMMIT_WAIT: '120s' });
    let waited: Awaited<ReturnType<typeof post>>;
    try {
      const resend = post(patient.url, u);
      await platform.startWorker();
      waited = await resend;
    } finally {
      expect(await stop(patient, 'SIGTERM')).toBe(0);
    }
    const done = await finished(first.body.statusUrl!);
    expect(done.status).toBe('committed');
    expect([waited.status, waited.body.error, waited.body.status, waited.body.commit]).toEqual([
      409,
      'duplicate webhook request',
      'committed',
      done.commit,
    ]);
    expect(await tagAt('w0', 'acme')).toBe('9.1.0');
    const head = await gitText(repo, ['rev-parse', 'main']);
    // Committed: the same bytes again answer 409 with the commit and commit nothing.
    const replay = await post(platform.url, u);
    expect([replay.status, replay.body.status, replay.body.statusUrl, replay.body.commit]).toEqual([
      409,
      'committed',
      first.body.statusUrl,
      done.commit,
    ]);
    expect(await gitText(repo, ['rev-parse', 'main'])).toBe(head);
  }, 240_000);
});

describe('two API processes taking updates of one target', () => {
  it('never let an older signed tag overwrite a newer one, whichever API took which', async () => {
    const apis = [await startApi(), await startApi()];
    try {
      for (let round = 0; round < 6; round += 1) {
        const now = Date.now();
        const older = update('w1', 'globex', `10.${round}.0`, new Date(now - 2_000));
        const newer = update('w1', 'globex', `10.${round}.1`, new Date(now - 1_000));
        // The newer to one API, the older to the other; in odd rounds the older is sent after the newer committed.
        const [a, b] = round % 2 === 0 ? apis : [apis[1]!, apis[0]!];
        const answers =
          round < 4
            ? await Promise.all([post(a!.url, newer), post(b!.url, older)])
            : [await post(a!.url, newer), await post(b!.url, older)];
        const outcomes = await Promise.all(
          answers.map(async (ans) => (ans.status === 202 ? (await finished(ans.body.statusUrl!)).result : ans.body)),
        );
        expect(answers.map((x) => x.status).every((s) => s === 200 || s === 202)).toBe(true);
        expect(outcomes.map((o) => o.status)).toEqual(['committed', expect.stringMatching(/^(committed|accepted)$/)]);
        expect(await tagAt('w1', 'globex')).toBe(`10.${round}.1`);
        // The older names its target as superseded unless it was committed before the newer arrived.
        const olderLost = outcomes[1]!.skipped.some((s) => s.reason === 'superseded');
        if (round >= 4) expect(olderLost).toBe(true);
        // Committed by the API that took it (planned in the commit's unit), not by the project's workflow.
        expect((await headWriter()).trim()).toMatch(/^direct-/);
      }
    } finally {
      for (const api of apis) await stop(api, 'SIGTERM');
    }
  }, 300_000);
});

describe('direct commits that do not land', () => {
  it('are handed to the project workflow when the API lacks the repositories volume, and committed there', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'no-repositories-'));
    const api = await startApi({ GIT_REPOSITORIES_DIR: empty });
    try {
      const answer = await post(api.url, update('w2', 'acme', '11.0.0'));
      const outcome = answer.status === 202 ? (await finished(answer.body.statusUrl!)).result : answer.body;
      expect([answer.status === 200 || answer.status === 202, outcome.status]).toEqual([true, 'committed']);
      expect(await tagAt('w2', 'acme')).toBe('11.0.0');
      expect((await headWriter()).trim()).toBe(`image-updates-${projectId}`);
    } finally {
      await stop(api, 'SIGTERM');
      await fs.rm(empty, { recursive: true, force: true });
    }
  }, 180_000);

  it('are left to the reconciler by an API killed mid-commit before it answered, and committed once', async () => {
    const since = (await gitText(repo, ['rev-parse', 'main'])).trim();
    const held = await holdRepositoryLock(platform.services.db, repo);
    // A wait longer than the test: the API dies with the request unanswered and its work staged, not handed over.
    const api = await startApi({ WEBHOOK_COMMIT_WAIT: '120s' });
    let unanswered: Promise<unknown>;
    try {
      unanswered = post(api.url, update('w3', 'globex', '12.0.0')).catch((err: unknown) => err);
      // The API's commit waits for the repository inside its transaction; the API dies there.
      await eventually(() => waitingBackend(held, "locktype = 'advisory'"), 60_000, 'the direct commit waiting');
    } finally {
      await stop(api, 'SIGKILL');
      await held.rollback();
    }
    expect(String(await unanswered)).toMatch(/fetch failed/);
    // The worker's reconciler (every INVITATION_RECONCILE_INTERVAL) hands staged requests to the workflow.
    expect(await platform.services.webhooks.reconcile(0)).toBe(1);
    await eventually(async () => (await tagAt('w3', 'globex')) === '12.0.0' || null, 60_000, 'the commit');
    expect((await gitText(repo, ['rev-list', `${since}..main`])).trim().split('\n')).toHaveLength(1);
    expect((await headWriter()).trim()).toBe(`image-updates-${projectId}`);
  }, 180_000);

  it('are in the workflow before a 202 is answered: an API killed after it, mid-commit, loses nothing', async () => {
    const since = (await gitText(repo, ['rev-parse', 'main'])).trim();
    const held = await holdRepositoryLock(platform.services.db, repo);
    const api = await startApi();
    let answer: Awaited<ReturnType<typeof post>>;
    try {
      answer = await post(api.url, update('w3', 'acme', '13.0.0'));
      expect([answer.status, answer.body.status]).toEqual([202, 'queued']);
    } finally {
      await stop(api, 'SIGKILL');
      await held.rollback();
    }
    // No reconciler run: the workflow had the update before the answer, and commits it once.
    const done = await finished(answer.body.statusUrl!);
    expect(done.status).toBe('committed');
    expect(await tagAt('w3', 'acme')).toBe('13.0.0');
    expect((await gitText(repo, ['rev-list', `${since}..main`])).trim().split('\n')).toEqual([done.commit]);
    expect((await headWriter()).trim()).toBe(`image-updates-${projectId}`);
  }, 180_000);
});
