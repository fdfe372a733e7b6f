import { makeOrg, uniqueSlug } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';
import { controllerClient, controllerEvent } from './controller-client';

/**
 * The controller webhook over real HTTP with real release workflows: the organization's token, Application names
 * parsed back into targets, the stored deployment status, and the release whose commit matches told Healthy or Failed.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let releases: ReturnType<typeof releaseClient>;
let controller: ReturnType<typeof controllerClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let viewer: string;
let token: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  releases = releaseClient(platform);
  controller = controllerClient(platform.url);
  org = await makeOrg(platform, ['owner', 'viewer']);
  owner = org.members.owner!.token;
  viewer = org.members.viewer!.token;
  token = await controller.tokenFor(owner);
  expect(token).toMatch(/^cdc_/);
}, 120_000);
afterAll(() => platform.close());

/** A project of its own for each test: its targets and their newest reported status start empty. */
async function ownProject(): Promise<{ slug: string; ids: Record<string, string> }> {
  const slug = uniqueSlug('ctl');
  return { slug, ids: await makeProject(platform, owner, slug, ['acme', 'globex']) };
}

async function syncingRelease(
  project: { slug: string; ids: Record<string, string> },
  tenant: string,
  environment: string,
  title: string,
) {
  const created = await releases.create(owner, project.slug, {
    environment,
    tenantId: project.ids[tenant],
    title,
    changes: [{ workload: 'web', variables: { TITLE: title.replace(/\W/g, '') } }],
  });
  expect(created.status).toBe(201);
  return releases.status(owner, created.body.id, 'Syncing');
}

describe('the controller webhook', () => {
  it("turns the release of the reported revision Healthy and stores the service's status", async () => {
    const project = await ownProject();
    const { slug } = project;
    const syncing = await syncingRelease(project, 'acme', 'dev', 'healthy one');
    const res = await controller.post(token, controller.event(`${slug}.acme.dev.web`, syncing.commitSha!));
    expect(res.status).toBe(200);
    expect(res.body.release).toEqual({ id: syncing.id, status: 'Healthy' });
    expect((await releases.get(owner, syncing.id)).status).toBe('Healthy');

    const status = await http.get<{ items: Record<string, unknown>[] }>(
      `/api/v2/projects/${slug}/deployment-status?tenant=acme&environment=dev&service=web`,
      { token: viewer },
    );
    expect(status.status).toBe(200);
    expect(status.body.items).toEqual([
      expect.objectContaining({
        tenant: 'acme',
        environment: 'dev',
        service: 'web',
        syncStatus: 'Synced',
        healthStatus: 'Healthy',
        revision: syncing.commitSha,
        namespace: 'argocd',
      }),
    ]);
  });

  it('turns it Failed on degraded health and records release.fail', async () => {
    const project = await ownProject();
    const { slug } = project;
    const syncing = await syncingRelease(project, 'globex', 'dev', 'degraded one');
    const res = await controller.post(
      token,
      controller.event(`${slug}.globex.dev.web`, syncing.commitSha!, 'Degraded'),
    );
    expect(res.status).toBe(200);
    expect(res.body.release).toEqual({ id: syncing.id, status: 'Failed' });
    const fail = await platform.services
      .db('audit_log')
      .where({ action: 'release.fail', resource_id: syncing.id })
      .first();
    expect(fail).toBeDefined();
    expect(fail.git_commit_sha).toBe(syncing.commitSha);
  });

  it('answers 404 for Application names it cannot place, and stores nothing', async () => {
    const project = await ownProject();
    const { slug } = project;
    const sha = 'a'.repeat(40);
    for (const name of [
      'not-ours',
      `${slug}.acme.dev`,
      `${slug}.initech.dev.web`,
      `${slug}.acme.qa.web`,
      'other.acme.dev.web',
      `${slug}.acme.dev.nope`,
    ]) {
      const res = await controller.post(token, controller.event(name, sha));
      expect({ name, status: res.status }).toEqual({ name, status: 404 });
    }
    expect(await platform.services.db('deployment_statuses').where({ revision: sha })).toHaveLength(0);
  });

  it('refuses a missing or wrong token (401), a replay (409 with the recorded answer), stale events (400) and bad payloads (400)', async () => {
    const project = await ownProject();
    const { slug } = project;
    const event = controller.event(`${slug}.acme.prod.web`, 'b'.repeat(40), 'Progressing', 'OutOfSync');
    expect((await http.post('/api/v1/webhooks/cdcontroller', { body: event })).status).toBe(401);
    expect((await controller.post(`cdc_${'x'.repeat(43)}`, event)).status).toBe(401);
    const first = await controller.post(token, event);
    expect(first.status).toBe(200);
    // The same bytes again (WH-3): the spec's 409 with the first answer's body as its outcome, nothing stored again.
    const stored = await platform.services.db('deployment_statuses').where({ revision: 'b'.repeat(40) });
    const replay = await controller.post(token, event);
    expect([replay.status, replay.body.error, replay.body.status]).toEqual([
      409,
      'duplicate webhook request',
      'committed',
    ]);
    expect(replay.body.result).toEqual(first.body);
    expect(await platform.services.db('deployment_statuses').where({ revision: 'b'.repeat(40) })).toEqual(stored);
    const stale = controllerEvent(
      `${slug}.acme.prod.web`,
      'b'.repeat(40),
      'Healthy',
      'Synced',
      new Date(Date.now() - 301_000),
    );
    expect((await controller.post(token, stale)).status).toBe(400);
    const future = controllerEvent(
      `${slug}.acme.prod.web`,
      'b'.repeat(40),
      'Healthy',
      'Synced',
      new Date(Date.now() + 600_000),
    );
    expect((await controller.post(token, future)).status).toBe(400);
    expect((await controller.post(token, { app: { metadata: { name: `${slug}.acme.prod.web` } } })).status).toBe(400);
    expect((await controller.post(token, controller.event(`${slug}.acme.prod.web`, 'not-a-sha'))).status).toBe(400);
  });

  it('keeps the newest status when an older event arrives late (409, not applied)', async () => {
    const project = await ownProject();
    const { slug } = project;
    const newer = controllerEvent(`${slug}.globex.prod.web`, 'c'.repeat(40), 'Healthy', 'Synced', new Date());
    const older = controllerEvent(
      `${slug}.globex.prod.web`,
      'd'.repeat(40),
      'Degraded',
      'Synced',
      new Date(Date.now() - 10_000),
    );
    expect((await controller.post(token, newer)).status).toBe(200);
    expect((await controller.post(token, older)).status).toBe(409);
    const row = await platform.services
      .db('deployment_statuses')
      .where({ tenant_id: project.ids.globex, environment: 'prod' })
      .first();
    expect(row.revision).toBe('c'.repeat(40));
  });

  it('shows whether a token exists and since when, never its value; the first token has no previous one', async () => {
    const fresh = await makeOrg(platform, ['owner', 'viewer']);
    const admin = fresh.members.owner!.token;
    const state = () =>
      http.get<{ exists: boolean; createdAt: string | null; previousTokenValidUntil: string | null }>(
        '/api/v2/org/cdcontroller-token',
        { token: admin },
      );
    expect((await state()).body).toEqual({ exists: false, createdAt: null, previousTokenValidUntil: null });
    expect((await http.get('/api/v2/org/cdcontroller-token', { token: fresh.members.viewer!.token })).status).toBe(403);

    const first = await http.post<{ token: string; previousTokenValidUntil: string | null }>(
      '/api/v2/org/cdcontroller-token',
      { token: admin },
    );
    expect(first.status).toBe(200);
    expect(first.body.previousTokenValidUntil).toBeNull();
    const created = await state();
    expect(created.body).toEqual({ exists: true, createdAt: expect.any(String), previousTokenValidUntil: null });
    expect(JSON.stringify(created.body)).not.toContain(first.body.token);

    const second = await http.post<{ previousTokenValidUntil: string | null }>('/api/v2/org/cdcontroller-token', {
      token: admin,
    });
    expect(Date.parse(second.body.previousTokenValidUntil ?? '')).toBeGreaterThan(Date.now());
    expect((await state()).body.previousTokenValidUntil).toBe(second.body.previousTokenValidUntil);
  });

  it('keeps the previous token working during the overlap after a rotation; other organizations cannot report', async () => {
    // An organization of its own: the rotation changes no token another test uses.
    const own = await makeOrg(platform, ['owner', 'viewer']);
    const ownOwner = own.members.owner!.token;
    const slug = uniqueSlug('ctl');
    await makeProject(platform, ownOwner, slug, ['acme', 'globex']);
    const previous = await controllerClient(platform.url).tokenFor(ownOwner);
    const fresh = await http.post<{ token: string }>('/api/v2/org/cdcontroller-token', { token: ownOwner });
    expect(fresh.status).toBe(200);
    expect((await controller.post(previous, controller.event(`${slug}.acme.prod.web`, 'e'.repeat(40)))).status).toBe(
      200,
    );
    expect(
      (await controller.post(fresh.body.token, controller.event(`${slug}.acme.prod.web`, 'e'.repeat(40)))).status,
    ).toBe(200);
    expect((await http.post('/api/v2/org/cdcontroller-token', { token: own.members.viewer!.token })).status).toBe(403);
    // Another organization's token does not place this organization's Applications.
    expect((await controller.post(token, controller.event(`${slug}.acme.prod.web`, 'f'.repeat(40)))).status).toBe(404);
  });
});
