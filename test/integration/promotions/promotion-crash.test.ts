import { exited, spawnScript } from '../../helpers/child-process';
import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { deploymentEnv } from '../../helpers/platform-process';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { gitText } from '../../../src/gitops/git-plumbing';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from './promotion-harness';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
}, 120_000);
afterAll(() => platform.close());

describe('a promotion whose worker is killed during execution', () => {
  it('ends with exactly one commit once another worker takes over', async () => {
    const { org, members } = await makeOrg(platform, ['owner']);
    const token = members.owner!.token;
    const api = promotionClient(platform);
    const tenants = await makeProject(platform, token, 'crashp', ['acme', 'globex']);
    await api.releaseToDev(token, 'crashp', tenants.acme!, '7.0.0');
    await platform.stopWorker();
    const db = platform.services.db;
    const project = (await db('projects').where({ organization_id: org.id, slug: 'crashp' }).first('id')) as {
      id: string;
    };
    const repo = platform.services.repositories.pathOf(org.id, project.id);
    const before = (await gitText(repo, ['rev-list', '--count', 'main'])).trim();

    // Hold the workload row: the commit activity stops inside its transaction (repository lock held) when it sets the
    // promoted tag. That is where its worker is killed.
    const held = await db.transaction();
    await held('workloads').where({ project_id: project.id }).forUpdate().select('id');
    const worker = spawnScript('scripts/serve.ts', ['worker'], deploymentEnv(platform));
    const requested = await api.request(token, 'crashp', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(requested.status).toBe(201);
    await api.status(token, requested.body.id, 'Executing', 60_000);
    worker.kill('SIGKILL');
    expect(await exited(worker)).toBe('SIGKILL');
    await held.rollback();

    await platform.startWorker();
    const syncing = await api.status(token, requested.body.id, 'Syncing', 120_000);
    const keyed = await gitText(repo, [
      'log',
      '--format=%H',
      `--grep=^Idempotency-Key: promotion-${requested.body.id}-`,
      'main',
    ]);
    expect(keyed.trim().split('\n')).toEqual([syncing.commitSha]);
    expect(Number((await gitText(repo, ['rev-list', '--count', 'main'])).trim())).toBe(Number(before) + 1);
    const executed = await eventually(async () => {
      const rows = (await db('audit_log').where({
        resource_id: requested.body.id,
        action: 'promotion.execute',
      })) as unknown[];
      return rows.length > 0 ? rows : null;
    });
    expect(executed).toHaveLength(1);
  }, 200_000);
});
