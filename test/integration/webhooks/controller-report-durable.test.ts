import { makeOrg, uniqueSlug } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';
import { startApiProcess, stopPlatformProcess as stopApiProcess } from '../../helpers/platform-process';
import { controllerClient } from './controller-client';

/**
 * A controller report and the telling of its release cannot part ways (issue 34): the report, its service status and
 * the request row holding what is still to tell commit together; an API process killed while telling leaves the row,
 * and either the controller's retry of the same bytes or the worker's reconciler tells the release.
 */
let platform: TestPlatform;
let releases: ReturnType<typeof releaseClient>;
let controller: ReturnType<typeof controllerClient>;
let owner: string;
let token: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  releases = releaseClient(platform);
  controller = controllerClient(platform.url);
  const org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  token = await controller.tokenFor(owner);
}, 120_000);
afterAll(() => platform.close());

/**
 * A release Syncing on its own project, whose Healthy report an API process stored and then died while telling it
 * (the workers were stopped, so the telling waited): the state the issue found, release Syncing and service Healthy.
 */
async function reportStoredButNotTold() {
  const slug = uniqueSlug('ctl');
  const ids = await makeProject(platform, owner, slug, ['acme']);
  const created = await releases.create(owner, slug, {
    environment: 'dev',
    tenantId: ids.acme,
    title: 'told once',
    changes: [{ workload: 'web', variables: { TITLE: 'toldonce' } }],
  });
  expect(created.status).toBe(201);
  const syncing = await releases.status(owner, created.body.id, 'Syncing');
  const event = controller.event(`${slug}.acme.dev.web`, syncing.commitSha!);
  await platform.stopWorker();
  const api = await startApiProcess(platform);
  try {
    void controllerClient(api.url)
      .post(token, event)
      .catch(() => undefined);
    await eventually(
      () => platform.services.db('webhook_requests').where({ kind: 'cdcontroller' }).whereNotNull('work').first(),
      30_000,
      'the report stored with its outbox row',
    );
  } finally {
    expect(await stopApiProcess(api, 'SIGKILL')).toBe('SIGKILL');
    await platform.startWorker();
  }
  const stored = await platform.services.db('deployment_statuses').where({ revision: syncing.commitSha }).first();
  expect(stored.health_status).toBe('Healthy');
  expect((await releases.get(owner, syncing.id)).status).toBe('Syncing');
  return { syncing, event };
}

describe('a controller report stored by an API process killed before it told the release', () => {
  it("is told by the controller's retry of the same bytes (409 with the outcome), and the same bytes after that get the same outcome", async () => {
    const { syncing, event } = await reportStoredButNotTold();
    const retry = await controller.post(token, event);
    expect([retry.status, retry.body.error, retry.body.status]).toEqual([
      409,
      'duplicate webhook request',
      'committed',
    ]);
    expect((retry.body.result as { release: unknown }).release).toEqual({ id: syncing.id, status: 'Healthy' });
    expect((await releases.get(owner, syncing.id)).status).toBe('Healthy');
    // Told: the same bytes once more answer the same outcome, telling nothing again.
    const again = await controller.post(token, event);
    expect([again.status, again.body]).toEqual([409, retry.body]);
    expect((await releases.get(owner, syncing.id)).status).toBe('Healthy');
  }, 180_000);

  it("is told by the worker's reconciler when no retry comes", async () => {
    const { syncing } = await reportStoredButNotTold();
    expect(await platform.services.webhooks.reconcile(0)).toBeGreaterThanOrEqual(1);
    expect((await releases.get(owner, syncing.id)).status).toBe('Healthy');
    const rows = await platform.services.db('webhook_requests').where({ kind: 'cdcontroller' }).whereNotNull('work');
    expect(rows).toEqual([]);
  }, 180_000);
});
