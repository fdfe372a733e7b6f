import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { scaled } from '../../helpers/time-scale';
import { releaseClient } from '../releases/release-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { gitText } from '../../../src/git/git-plumbing';
import { makeProject } from './gitops-harness';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { DIGEST, shapeBHeaders } from '../webhooks/webhook-signing';

/**
 * A real full disk under the hosted repositories for a minute (issue 43): the Git folder is a small tmpfs of its own,
 * filled to the last byte while a release commits. The release waits the outage out (its commit keeps retrying, on
 * the `git` queue, for GIT_COMMIT_PATIENCE) and commits exactly once when space is back; it never fails. Meanwhile the
 * release's state (detail and list), a promotion's and the image update's status URL say what each waits out, and
 * stop once it landed.
 */
const OUTAGE_MS = 60_000;

let platform: TestPlatform;
let root: string;
let gitDir: string;
let token: string;
let tenantId: string;
let globexId: string;
let repo: string;
let secret: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'full-disk-'));
  fs.chmodSync(root, 0o755);
  gitDir = path.join(root, 'git');
  fs.mkdirSync(gitDir);
  // Root mounts it (CI and this machine run the suite as root): a volume that really fills up.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', gitDir]);
  platform = await startTestPlatform({ env: { GIT_REPOSITORIES_DIR: gitDir } });
  const { org, members } = await makeOrg(platform, ['owner']);
  token = members.owner!.token;
  const tenants = await makeProject(platform, token, 'shop', ['acme', 'globex']);
  tenantId = tenants.acme!;
  globexId = tenants.globex!;
  const http = httpClient(platform.url);
  expect((await http.post('/api/v2/projects/shop/delivery/generate', { token, body: {} })).status).toBe(200);
  const settings = await http.put<{ secret: string }>('/api/v2/projects/shop/webhook-settings', {
    token,
    body: { autoUpdateEnvironments: ['dev'] },
  });
  secret = settings.body.secret;
  const project = (await platform.services
    .db('projects')
    .where({ organization_id: org.id, slug: 'shop' })
    .first('id')) as { id: string };
  repo = platform.services.repositories.pathOf(org.id, project.id);
}, 120_000);

afterAll(async () => {
  await platform?.close();
  // Unmounted before its folder is removed (scratchDir would remove it while mounted).
  if (gitDir) execFileSync('umount', [gitDir]);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** A signed image update (shape B) of globex's web in dev. */
function imageUpdate(tag: string) {
  const body = JSON.stringify({
    image: 'registry.example.com/shop/web',
    tag,
    digest: DIGEST,
    project: 'shop',
    workload: 'web',
    environments: ['dev'],
    tenants: ['globex'],
    timestamp: new Date().toISOString(),
  });
  return httpClient(platform.url).post<{ status: string; statusUrl?: string; commit: string | null }>(
    '/api/v1/webhooks/image-update',
    { rawBody: body, headers: shapeBHeaders(secret, body) },
  );
}

/** Writes zeros until the volume refuses a byte more; returns the filler's path. */
function fillUp(dir: string): string {
  const filler = path.join(dir, 'filler');
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(1 << 20);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  // The last partial chunk too: not one more byte fits.
  try {
    fs.appendFileSync(filler, Buffer.alloc(4096));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  return filler;
}

it('a release, a promotion and an acknowledged image update meet a full disk for a minute: each waits saying so, commits once, none fails', async () => {
  const releases = releaseClient(platform);
  const promotions = promotionClient(platform);
  // Something to promote: globex's dev runs 1.5.0 (prod still 1.0.0).
  expect((await promotions.releaseToDev(token, 'shop', globexId, '1.5.0')).status).toBe('Healthy');
  const commitsBefore = (await gitText(repo, ['rev-list', '--all', '--count'])).trim();
  const outageStart = Date.now();
  const filler = fillUp(gitDir);
  const created = await releases.create(token, 'shop', {
    environment: 'dev',
    tenantId,
    title: 'web 2.0.0',
    changes: [{ workload: 'web', tag: '2.0.0' }],
  });
  expect(created.status).toBe(201);
  // The image update is acknowledged (queued for the workflow: its commit cannot land now).
  const update = await imageUpdate('2.1.0');
  expect([update.status, update.body.status]).toEqual([202, 'queued']);
  // The promotion of globex's dev version to prod: evaluated (reads work), its commit waits.
  const promotion = await promotions.request(token, 'shop', {
    sourceEnvironment: 'dev',
    targetEnvironment: 'prod',
    tenants: ['globex'],
  });
  expect(promotion.status).toBe(201);
  const http = httpClient(platform.url);
  const seen = new Set<string>();
  /** What the release (its detail and the project's list) and the image update's status URL said during the outage. */
  const said = {
    detail: new Set<string>(),
    list: new Set<string>(),
    update: new Set<string>(),
    promotion: new Set<string>(),
    late: new Set<string>(),
  };
  /** A second image update of the same target, sent once the first says it waits: it waits behind that batch. */
  let late: Awaited<ReturnType<typeof imageUpdate>> | null = null;
  for (const until = Date.now() + OUTAGE_MS; Date.now() < until;) {
    const release = await releases.get(token, created.body.id);
    seen.add(`${release.status}${release.commitSha ? ' committed' : ''}`);
    if (release.statusReason) said.detail.add(release.statusReason);
    const list = await http.get<{ items: { id: string; statusReason: string | null }[] }>(
      '/api/v2/projects/shop/releases',
      { token },
    );
    const listed = list.body.items.find((r) => r.id === created.body.id);
    if (listed?.statusReason) said.list.add(listed.statusReason);
    const status = await http.get<{ status: string; waiting: string | null }>(update.body.statusUrl!);
    if (status.body.waiting) said.update.add(`${status.body.status}: ${status.body.waiting}`);
    if (late === null && status.body.waiting) {
      late = await imageUpdate('2.2.0');
      expect([late.status, late.body.status]).toEqual([202, 'queued']);
    } else if (late !== null) {
      const lateStatus = await http.get<{ status: string; waiting: string | null }>(late.body.statusUrl!);
      if (lateStatus.body.waiting) said.late.add(`${lateStatus.body.status}: ${lateStatus.body.waiting}`);
    }
    const promoted = await promotions.get(token, promotion.body.id);
    said.promotion.add(`${promoted.status}: ${promoted.statusReason ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  // The whole minute (after its validation): deploying, nothing committed, not failed.
  expect([...seen].filter((s) => s !== 'Validating')).toEqual(['Deploying']);
  // Each says why and since when, once its first attempts failed: one wait, the same words everywhere.
  const WAIT = /^commit waiting for the Git volume: (.+), retrying since (\d{4}-\d\d-\d\dT[\d:.]+Z)$/;
  expect(said.detail.size).toBe(1);
  const [note] = [...said.detail];
  const [, reason, since] = WAIT.exec(note!) ?? [];
  expect(reason).toMatch(/no space left on device/i);
  expect(Date.parse(since!)).toBeGreaterThanOrEqual(outageStart - 1000);
  expect(Date.parse(since!)).toBeLessThan(outageStart + OUTAGE_MS);
  expect([...said.list]).toEqual([note]);
  expect(said.update.size).toBe(1);
  expect([...said.update][0]).toMatch(
    /^queued: commit waiting for the Git volume: .*no space left on device.*, retrying since /i,
  );
  // The later request said the same as the batch it waits behind.
  expect([...said.late]).toEqual([...said.update]);
  // The promotion: Executing, saying the same (its own reason and time), never committed or failed meanwhile.
  const promotionWaits = [...said.promotion].filter((p) => !p.startsWith('Evaluating'));
  expect(promotionWaits.length).toBeGreaterThanOrEqual(1);
  const promotionNotes = promotionWaits.filter((p) => p !== 'Executing: committing the moves' && p !== 'Executing: ');
  expect(promotionNotes).toHaveLength(1);
  expect(promotionNotes[0]).toMatch(
    /^Executing: commit waiting for the Git volume: .*no space left on device.*, retrying since /i,
  );
  expect(promotionWaits.every((p) => p.startsWith('Executing: '))).toBe(true);
  // The release's wait is an audit entry of its own (the row changed), once.
  const waits = await platform.services
    .db('audit_log')
    .where({ resource_id: created.body.id, action: 'release.commit.wait' })
    .select('details');
  expect(waits.map((w: { details: { reason: string } }) => w.details.reason)).toEqual([note]);
  expect((await gitText(repo, ['rev-list', '--all', '--count'])).trim()).toBe(commitsBefore);
  fs.rmSync(filler);
  const committed = await releases.until(token, created.body.id, (r) => r.commitSha !== null, scaled(150_000));
  expect(committed.status).not.toBe('Failed');
  // Once the commit landed the wait is over, and the release no longer says it waits.
  expect(committed.statusReason ?? '').not.toMatch(/waiting for the Git volume/);
  expect(await gitText(repo, ['cat-file', '-t', committed.commitSha!])).toMatch(/commit/);
  const updated = await eventually(async () => {
    const status = await http.get<{ status: string; commit: string | null }>(update.body.statusUrl!);
    return status.body.status === 'queued' ? null : status.body;
  }, scaled(150_000));
  expect(updated.status).toBe('committed');
  expect((await http.get<{ waiting: string | null }>(update.body.statusUrl!)).body.waiting).toBeNull();
  const lateDone = await eventually(async () => {
    const status = await http.get<{ status: string; waiting: string | null }>(late!.body.statusUrl!);
    return status.body.status === 'queued' ? null : status.body;
  }, scaled(150_000));
  expect([lateDone.status, lateDone.waiting]).toEqual(['committed', null]);
  const promoted = await promotions.until(token, promotion.body.id, (p) => p.commitSha !== null, scaled(150_000));
  expect(promoted.status).toBe('Syncing');
  expect(promoted.statusReason ?? '').not.toMatch(/waiting for the Git volume/);
  // One commit each: the release's, the two image updates' (one batch each) and the promotion's.
  expect(Number((await gitText(repo, ['rev-list', '--all', '--count'])).trim())).toBe(Number(commitsBefore) + 4);
}, 300_000);
