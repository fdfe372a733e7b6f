// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import fs from 'node:fs/promises';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { pinAsRollback } from '../../helpers/pins';
import { verifyChains } from '../../../src/audit/verify-chain';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { DIGEST, shapeAHeaders, shapeBHeaders } from './webhook-signing';
import { holdRepositoryLock } from '../../helpers/repository-lock';

/**
 * The signed image-update webhook over real HTTP, with the real commit workflow, PostgreSQL and git: both shapes,
 * the auto-update policy, pending releases, pins, filters, replay protection and attack rows 22 to 28.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let secret: string;
let tenants: Record<string, string>;
const URL_PATH = '/api/v1/webhooks/image-update';

interface Answer {
  requestId: string;
  status: string;
  commit: string | null;
  updated: { workload: string; tenant: string; environment: string; tag: string }[];
  releases: { id: string; tenant: string; environment: string }[];
  skipped: { workload?: string; tenant: string; environment: string; reason: string }[];
  error?: string;
}

/** The 409 a resend gets: the spec's message and what the first request's outcome is (the status URL follows it). */
interface Duplicate {
  error: string;
  requestId: string;
  status: string;
  commit: string | null;
  statusUrl: string;
  result: Record<string, unknown> | null;
}

const post = (raw: string | Buffer, headers: Record<string, string>) =>
  http.post<Answer>(URL_PATH, { rawBody: raw, headers });

const shapeA = (tag: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ repository: 'shop/web', tag, registry: 'registry.example.com', digest: DIGEST, ...extra });

const shapeB = (tag: string, tenantList: string[], timestamp = new Date().toISOString(), environments = ['dev']) =>
  JSON.stringify({
    image: 'registry.example.com/shop/web',
    tag,
    digest: DIGEST,
    project: 'shop',
    workload: 'web',
    environments,
    tenants: tenantList,
    timestamp,
  });

async function head(): Promise<string> {
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  expect(clone.ok).toBe(true);
  return (await gitCli(['rev-parse', 'HEAD'], clone.dir)).stdout.trim();
}

async function fileAt(sha: string, file: string): Promise<string> {
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  await gitCli(['checkout', '--quiet', sha], clone.dir);
  return fs.readFile(path.join(clone.dir, file), 'utf8');
}

async function changedFiles(sha: string): Promise<string[]> {
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  const out = await gitCli(['show', '--name-only', '--format=', sha], clone.dir);
  return out.stdout.split('\n').filter(Boolean).sort();
}

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  tenants = await makeProject(platform, owner, 'shop', ['acme', 'globex']);
  const workload = (name: string, repository: string) =>
    http.post('/api/v2/projects/shop/workloads', {
      token: owner,
      body: { name, image: { repository, tag: '1.0.0' }, ports: [{ name: 'http', containerPort: 8080 }] },
    });
  expect((await workload('worker', 'registry.example.com/shop/web')).status).toBe(201);
  expect((await workload('billing', 'registry.example.com/shop/billing')).status).toBe(201);
  expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
  // Pending releases wait for a deploy call, so the repository's head is the webhook's commit.
  const policy = { releases: { autoDeploy: false } };
  expect((await http.patch('/api/v2/projects/shop/policy', { token: owner, body: policy })).status).toBe(200);
  const settings = await http.put<{ secret: string }>('/api/v2/projects/shop/webhook-settings', {
    token: owner,
    body: { autoUpdateEnvironments: ['dev'], tagFilter: '^[0-9]+\\.[0-9]+\\.[0-9]+$' },
  });
  expect(settings.status).toBe(201);
  secret = settings.body.secret;
  expect(secret).toMatch(/^whsec_/);
}, 120_000);
afterAll(() => platform.close());

describe('settings', () => {
  it('shows the secret once, checks regexes on save, and rotates with an overlap', async () => {
    const read = await http.get<Record<string, unknown>>('/api/v2/projects/shop/webhook-settings', { token: owner });
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.text).not.toContain(secret);
    expect(read.body.autoUpdateEnvironments).toEqual(['dev']);
    // Stored sealed, never in clear.
    const row = await platform.services.db('webhook_settings').first();
    expect(JSON.stringify(row)).not.toContain(secret);

    const bad = (body: Record<string, unknown>) =>
      http.put('/api/v2/projects/shop/webhook-settings', {
        token: owner,
        body: { autoUpdateEnvironments: ['dev'], ...body },
      });
    expect((await bad({ tagFilter: '^(a+)\\1$' })).status).toBe(400);
    expect((await bad({ imageFilter: '(?=x)' })).status).toBe(400);
    expect((await bad({ imageFilter: 'a'.repeat(257) })).status).toBe(400);
    expect((await bad({ autoUpdateEnvironments: ['nope'] })).status).toBe(400);
  });
});

describe('shape A', () => {
  it('commits the tag to every workload of the repository in auto-update environments, in one commit', async () => {
    const body = shapeA('1.2.0');
    const res = await post(body, shapeAHeaders(secret, body));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('committed');
    const sha = res.body.commit!;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await head()).toBe(sha);
    for (const tenant of ['acme', 'globex']) {
      for (const workload of ['web', 'worker']) {
        expect(await fileAt(sha, `tenants/${tenant}/dev/${workload}/deployment.yaml`)).toContain(
          'registry.example.com/shop/web:1.2.0',
        );
      }
      expect(await fileAt(sha, `tenants/${tenant}/prod/web/deployment.yaml`)).not.toContain(':1.2.0');
      expect(await fileAt(sha, `tenants/${tenant}/dev/billing/deployment.yaml`)).not.toContain(':1.2.0');
    }
    const files = await changedFiles(sha);
    expect(files).toEqual(
      [
        'tenants/acme/dev/web/deployment.yaml',
        'tenants/acme/dev/worker/deployment.yaml',
        'tenants/globex/dev/web/deployment.yaml',
        'tenants/globex/dev/worker/deployment.yaml',
      ].sort(),
    );
    // prod does not auto-update: a pending release per tenant instead of a commit.
    expect(res.body.releases.map((r) => `${r.tenant}/${r.environment}`).sort()).toEqual(['acme/prod', 'globex/prod']);
    const release = await http.get<{ changes: unknown; createdBy: string }>(
      `/api/v2/releases/${res.body.releases[0]!.id}`,
      {
        token: owner,
      },
    );
    expect(release.body.changes).toEqual([
      { workload: 'web', tag: '1.2.0' },
      { workload: 'worker', tag: '1.2.0' },
    ]);
    expect(release.body.createdBy).toBe('image-update-webhook');

    // image.update entries: system actor, subsystem named, the request id, all on the commit SHA.
    const requestId = res.headers.get('x-request-id');
    const entries = await platform.services.db('audit_log').where({ action: 'image.update', git_commit_sha: sha });
    expect(entries).toHaveLength(4);
    for (const e of entries) {
      expect(e.actor_type).toBe('system');
      expect(e.actor).toBe('image-update-webhook');
      expect(e.request_id).toBe(requestId);
      expect(e.details.subsystem).toBe('image-update-webhook');
    }
    // Written in one insert, the entries still form an unbroken hash chain.
    expect((await verifyChains(platform.services.db)).problems).toEqual([]);
    const events = await platform.services.db('domain_events').where({ type: 'images updated via webhook' });
    expect(events.map((e: { payload: { gitCommitSha: string } }) => e.payload.gitCommitSha)).toContain(sha);
  });

  it('refuses the same signed request again with 409 and its recorded outcome (commit, status URL), committing nothing', async () => {
    const body = shapeA('1.2.1');
    const headers = shapeAHeaders(secret, body);
    const first = await post(body, headers);
    expect(first.status).toBe(200);
    const before = await head();
    const updates = async () => (await platform.services.db('audit_log').where({ action: 'image.update' })).length;
    const recordedUpdates = await updates();
    const replay = await http.post<Duplicate>(URL_PATH, { rawBody: body, headers });
    expect([replay.status, replay.body.error]).toEqual([409, 'duplicate webhook request']);
    expect([replay.body.requestId, replay.body.status, replay.body.commit]).toEqual([
      first.body.requestId,
      'committed',
      first.body.commit,
    ]);
    expect(replay.body.result).toEqual(first.body);
    expect(replay.body.statusUrl).toMatch(/^\/api\/v1\/webhooks\/image-update\/requests\/[0-9a-f-]{36}$/);
    const status = await http.get<{ status: string; commit: string }>(replay.body.statusUrl);
    expect([status.body.status, status.body.commit]).toEqual(['committed', first.body.commit]);
    expect(await head()).toBe(before);
    expect(await updates()).toBe(recordedUpdates);
  });

  it('refuses a resend of refused bytes with 409 and the recorded refusal', async () => {
    const body = shapeB('1.2.9', ['nosuchtenant']);
    const headers = shapeBHeaders(secret, body);
    const first = await post(body, headers);
    expect([first.status, first.body.error]).toEqual([404, 'tenant not found: nosuchtenant']);
    const replay = await http.post<Duplicate>(URL_PATH, { rawBody: body, headers });
    expect([replay.status, replay.body.error, replay.body.status, replay.body.commit]).toEqual([
      409,
      'duplicate webhook request',
      'failed',
      null,
    ]);
    expect(replay.body.result).toEqual({ status: 'refused', error: 'tenant not found: nosuchtenant' });
  });

  it('refuses a resend of committed bytes once their timestamp is outside the 5-minute window (401)', async () => {
    const body = shapeA('1.2.3');
    // Signed 296 s ago: inside the window now, outside it five seconds later.
    const headers = shapeAHeaders(secret, body, Math.floor(Date.now() / 1000) - 296);
    expect((await post(body, headers)).status).toBe(200);
    const before = await head();
    // Resent until the window has passed: a duplicate (409) while inside it, then refused as too old.
    const earlier: number[] = [];
    const late = await eventually(async () => {
      const answer = await post(body, headers);
      if (answer.status === 401) return answer;
      earlier.push(answer.status);
      return null;
    }, 15_000);
    expect([late.status, late.body.error]).toEqual([401, 'request timestamp outside the 5-minute window']);
    // Never processed again: every answer before the 401 was the duplicate's 409 (on a busy machine the first request
    // can take the whole 4 s, leaving no resend inside the window; the 409 itself: 'refuses the same signed request').
    expect(earlier.filter((status) => status !== 409)).toEqual([]);
    expect(await head()).toBe(before);
  }, 60_000);

  it('row 24: of two concurrent identical requests exactly one succeeds', async () => {
    const body = shapeA('1.2.2');
    const headers = shapeAHeaders(secret, body);
    const answers = await Promise.all([post(body, headers), post(body, headers)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  it('row 22: a stale (301 s) or future (10 min) timestamp is refused with no commit', async () => {
    const before = await head();
    for (const offset of [-301, 600]) {
      const body = shapeA(`1.3.${offset + 1000}`);
      const res = await post(body, shapeAHeaders(secret, body, Math.floor(Date.now() / 1000) + offset));
      expect(res.status).toBe(401);
    }
    expect(await head()).toBe(before);
  });

  it('row 23: a re-serialised body (whitespace, key order) fails the signature', async () => {
    const body = shapeA('1.4.0');
    const headers = shapeAHeaders(secret, body);
    const spaced = JSON.stringify(JSON.parse(body), null, 1);
    const reordered = JSON.stringify({
      tag: '1.4.0',
      repository: 'shop/web',
      registry: 'registry.example.com',
      digest: DIGEST,
    });
    expect((await post(spaced, headers)).status).toBe(401);
    expect((await post(reordered, headers)).status).toBe(401);
  });

  it('row 25: malformed signatures answer 401, never 500', async () => {
    const body = shapeA('1.5.0');
    const good = shapeAHeaders(secret, body);
    const hex = good['X-Service-Signature'].slice('sha256='.length);
    for (const signature of [
      hex,
      `sha256=${hex.toUpperCase()}`,
      `sha256=${hex.slice(0, 40)}`,
      `sha256=${hex.slice(0, 63)}`,
      `sha256=${'z'.repeat(64)}`,
      `sha1=${hex}`,
      `${good['X-Service-Signature']}, ${good['X-Service-Signature']}`,
      '',
    ]) {
      const res = await post(body, { ...good, 'X-Service-Signature': signature });
      expect({ signature, status: res.status }).toEqual({ signature, status: 401 });
    }
    // Two signature headers (fetch joins repeated headers the way a proxy would).
    const headers = new Headers({
      'Content-Type': 'application/json',
      'X-Service-Timestamp': good['X-Service-Timestamp'],
    });
    headers.append('X-Service-Signature', good['X-Service-Signature']);
    headers.append('X-Service-Signature', good['X-Service-Signature']);
    const twice = await fetch(`${platform.url}${URL_PATH}`, { method: 'POST', headers, body });
    expect(twice.status).toBe(401);
    // A shape A body without its timestamp header cannot be verified: 401.
    const { 'X-Service-Timestamp': _dropped, ...noTimestamp } = good;
    expect((await post(body, noTimestamp)).status).toBe(401);
  });

  it('row 26: a swapped timestamp header with the old signature answers 401', async () => {
    const body = shapeA('1.6.0');
    const headers = shapeAHeaders(secret, body);
    const swapped = { ...headers, 'X-Service-Timestamp': String(Number(headers['X-Service-Timestamp']) + 1) };
    expect((await post(body, swapped)).status).toBe(401);
  });

  it('row 28: a 10 MB body answers 413 before any signature or parse work', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 'a');
    const res = await post(big, shapeAHeaders(secret, 'x'));
    expect(res.status).toBe(413);
  });

  it('answers 422 for a tag outside the filter, 400 for a bad payload and 401 for an unknown repository', async () => {
    const before = await head();
    const latest = shapeA('latest');
    expect((await post(latest, shapeAHeaders(secret, latest))).status).toBe(422);
    const noDigest = JSON.stringify({ repository: 'shop/web', tag: '1.7.0', registry: 'registry.example.com' });
    expect((await post(noDigest, shapeAHeaders(secret, noDigest))).status).toBe(400);
    const unknown = shapeA('1.7.0', { repository: 'nobody/here' });
    expect((await post(unknown, shapeAHeaders(secret, unknown))).status).toBe(401);
    expect(await head()).toBe(before);
  });

  it('skips and names a pinned target, read with the rest of what the request needs in two statements before its claim', async () => {
    await pinAsRollback(platform, {
      organizationId: org.org.id,
      project: 'shop',
      tenantId: tenants.acme!,
      tenant: 'acme',
      environment: 'dev',
    });
    const { id: projectId } = await platform.services.db('projects').where({ slug: 'shop' }).first('id');
    // Issue 46: the candidates with their settings, then the project, its tenants, environments, pins, rollout plans
    // and freezes; the claim's insert is the third statement of the request.
    const statements: string[] = [];
    const track = (q: { sql: string; bindings?: unknown[] }) => {
      if (q.bindings?.includes(projectId) || q.bindings?.some((b) => Array.isArray(b) && b.includes('shop/web')))
        statements.push(q.sql);
    };
    try {
      const body = shapeA('1.8.0');
      platform.services.db.on('query', track);
      const res = await post(body, shapeAHeaders(secret, body)).finally(() => platform.services.db.off('query', track));
      expect(res.status).toBe(200);
      const claim = statements.findIndex((sql) => sql.startsWith('insert into "webhook_requests"'));
      expect(claim).toBe(2);
      expect(statements[0]).toMatch(/from "webhook_settings".*from "workloads"/s);
      for (const table of ['projects', 'project_tenants', 'target_pins', 'rollout_plans', 'freeze_windows'])
        expect(statements[1]).toContain(`from "${table}"`);
      expect(res.body.skipped).toEqual([
        { tenant: 'acme', environment: 'dev', reason: 'pinned', detail: 'rolled back' },
      ]);
      expect(await fileAt(res.body.commit!, 'tenants/acme/dev/web/deployment.yaml')).not.toContain(':1.8.0');
      expect(await fileAt(res.body.commit!, 'tenants/globex/dev/web/deployment.yaml')).toContain(':1.8.0');
    } finally {
      await platform.services.db('target_pins').where({ tenant_id: tenants.acme!, environment: 'dev' }).delete();
    }
  });
});

describe('a commit that takes longer than the bound', () => {
  it('answers 202 with a status URL that later shows the commit', async () => {
    // The repository's lock is held past the commit wait (5 s): the API's direct commit waits for it.
    const { db, repositories } = platform.services;
    const project = (await db('projects').where({ organization_id: org.org.id, slug: 'shop' }).first('id')) as {
      id: string;
    };
    const held = await holdRepositoryLock(db, repositories.pathOf(org.org.id, project.id));
    const body = shapeA('1.9.0');
    let queued: Awaited<ReturnType<typeof post>>;
    try {
      queued = await post(body, shapeAHeaders(secret, body));
    } finally {
      await held.rollback();
    }
    expect(queued.status).toBe(202);
    const statusUrl = (queued.body as unknown as { statusUrl: string }).statusUrl;
    expect(statusUrl).toBe(`/api/v1/webhooks/image-update/requests/${queued.body.requestId}`);
    const done = await eventually(async () => {
      const res = await http.get<{ status: string; commit: string | null }>(statusUrl);
      if (res.body.status !== 'committed') throw new Error(`still ${res.body.status}`);
      return res.body;
    }, 30_000);
    expect(done.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await fileAt(done.commit!, 'tenants/acme/dev/web/deployment.yaml')).toContain(':1.9.0');
  }, 60_000);
});

describe('shape B', () => {
  it('commits two tenants in one commit and answers 200 with the SHA, claimed with its work in one statement', async () => {
    const body = shapeB('2.0.0', ['acme', 'globex']);
    const requests: string[] = [];
    const batchReads: string[] = [];
    const all: string[] = [];
    const track = (q: { sql: string }) => {
      all.push(q.sql);
      if (/^(insert into|update) "webhook_requests"/.test(q.sql)) requests.push(q.sql);
      if (/^select/i.test(q.sql) && /from "(image_update_marks|webhook_requests|workloads)"/.test(q.sql))
        batchReads.push(q.sql);
    };
    platform.services.db.on('query', track);
    const res = await post(body, shapeBHeaders(secret, body)).finally(() => platform.services.db.off('query', track));
    expect(res.status).toBe(200);
    // Issue 46: only auto-update targets, so the claim's insert carries the work and the answer so far (the outbox):
    // no second statement stages them.
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/^insert into "webhook_requests" \(.*"result".*"work"/);
    const row = await platform.services.db('webhook_requests').where({ id: res.body.requestId }).first();
    expect([row.status, row.commit_sha, row.work]).toEqual(['committed', res.body.commit, null]);
    // The commit reads its batch's request rows and their targets' marks with its project and workloads, the rows and
    // the workloads locked, in one statement (and the request's own read of its workload before the claim).
    const commitLoad = batchReads.filter((sql) => sql.includes('from "image_update_marks"'));
    expect(commitLoad).toHaveLength(1);
    expect(commitLoad[0]).toMatch(/from "webhook_requests".*for update/s);
    expect(commitLoad[0]).toMatch(/from "workloads".*for update/s);
    // No other read of them (an unlocked read of request rows is the outcome watcher's look, after a slow commit).
    const standalone = (sql: string) => !sql.includes('from "projects"');
    const look = (sql: string) => sql.startsWith('select * from "webhook_requests"') && !sql.includes('for update');
    expect(batchReads.filter((sql) => standalone(sql) && !look(sql))).toEqual([]);
    // The commit's rows in one round trip (a statement each before): the workloads' patch, its domain event,
    // deployed state, marks, the requests' finish, the commit record and the audit append; so the transaction is the
    // lock (with the recorded head and the pass's record state), the load and that batch.
    const appends = all.findIndex((sql) => sql.includes('INSERT INTO domain_events'));
    expect(all[appends]).toMatch(/^UPDATE workloads SET overrides[^;]*;\s*INSERT INTO domain_events/);
    for (const table of ['deployed_target_events', 'image_update_marks', 'UPDATE webhook_requests', 'git_commits']) {
      expect(all[appends]).toContain(table);
    }
    expect(all[appends]).toMatch(/pg_advisory_xact_lock\(hashtextextended\(E'audit:[^;]*;\s*WITH RECURSIVE/);
    const begin = all.lastIndexOf('BEGIN;', appends);
    expect(all.slice(begin, all.indexOf('COMMIT;', appends) + 1)).toHaveLength(5);
    const sha = res.body.commit!;
    expect(await changedFiles(sha)).toEqual([
      'tenants/acme/dev/web/deployment.yaml',
      'tenants/globex/dev/web/deployment.yaml',
    ]);
    expect(res.body.updated).toHaveLength(2);
  });

  it('answers 404 for an unknown workload or tenant, and `*` means every tenant', async () => {
    const unknown = JSON.stringify({ ...JSON.parse(shapeB('2.1.0', ['acme'])), workload: 'nope' });
    expect((await post(unknown, shapeBHeaders(secret, unknown))).status).toBe(404);
    const tenant = shapeB('2.1.0', ['initech']);
    expect((await post(tenant, shapeBHeaders(secret, tenant))).status).toBe(404);
    const all = shapeB('2.1.1', ['*']);
    const res = await post(all, shapeBHeaders(secret, all));
    expect(res.status).toBe(200);
    expect(res.body.updated.map((u) => u.tenant).sort()).toEqual(['acme', 'globex']);
  });

  it('row 27: a stale body timestamp is refused; duplicate timestamp keys never resolve to a fresh value', async () => {
    const stale = shapeB('2.2.0', ['acme'], new Date(Date.now() - 301_000).toISOString());
    expect((await post(stale, shapeBHeaders(secret, stale))).status).toBe(401);
    const fresh = new Date().toISOString();
    const old = new Date(Date.now() - 3_600_000).toISOString();
    const twice = shapeB('2.2.1', ['acme'], old).replace(/}$/, `,"timestamp":"${fresh}"}`);
    const res = await post(twice, shapeBHeaders(secret, twice));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/duplicate key/);
  });

  it('verifies with the rotated-out secret during the overlap, and with the new one', async () => {
    const rotated = await http.post<{ secret: string }>('/api/v2/projects/shop/webhook-settings/rotate-secret', {
      token: owner,
    });
    expect(rotated.status).toBe(200);
    const oldBody = shapeB('2.3.0', ['acme']);
    expect((await post(oldBody, shapeBHeaders(secret, oldBody))).status).toBe(200);
    const newBody = shapeB('2.3.1', ['acme']);
    expect((await post(newBody, shapeBHeaders(rotated.body.secret, newBody))).status).toBe(200);
    expect((await post(newBody, shapeBHeaders('whsec_wrong', newBody))).status).toBe(401);
    secret = rotated.body.secret;
  });
});
