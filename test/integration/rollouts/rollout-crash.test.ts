import { exited, spawnScript } from '../../helpers/child-process';
import { makeOrg } from '../../helpers/fixtures';
import { deploymentEnv } from '../../helpers/platform-process';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { eventually } from '../../helpers/net';
import { gitText } from '../../../src/gitops/git-plumbing';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from '../promotions/promotion-harness';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
}, 120_000);
afterAll(() => platform.close());

interface Rollout {
  waves: { promotionIds: string[] }[];
}

describe('a rollout whose worker is killed while its first wave commits', () => {
  it('keeps one promotion and one commit for the wave once another worker takes over', async () => {
    const { org, members } = await makeOrg(platform, ['owner']);
    const token = members.owner!.token;
    const api = promotionClient(platform);
    const tenants = await makeProject(platform, token, 'crashr', ['acme', 'globex']);
    await api.releaseToDev(token, 'crashr', tenants.acme!, '7.0.0');
    await api.releaseToDev(token, 'crashr', tenants.globex!, '7.0.0');
    await platform.stopWorker();
    const db = platform.services.db;
    const project = (await db('projects').where({ organization_id: org.id, slug: 'crashr' }).first('id')) as {
      id: string;
    };
    const repo = platform.services.repositories.pathOf(org.id, project.id);
    const before = (await gitText(repo, ['rev-list', '--count', 'main'])).trim();

    // The wave's commit stops inside its transaction on the held workload row: its worker is killed there.
    const held = await db.transaction();
    await held('workloads').where({ project_id: project.id }).forUpdate().select('id');
    const worker = spawnScript('scripts/serve.ts', ['worker'], deploymentEnv(platform));
    const started = await api.http.post<{ id: string }>('/api/v2/projects/crashr/rollouts', {
      token,
      body: {
        sourceEnvironment: 'dev',
        targetEnvironment: 'prod',
        plan: { waves: [{ tenants: ['acme'] }, { tenants: ['globex'] }] },
      },
    });
    expect(started.status).toBe(201);
    const rolloutOf = async () => (await api.http.get<Rollout>(`/api/v2/rollouts/${started.body.id}`, { token })).body;
    const promotionId = await eventually(async () => (await rolloutOf()).waves[0]!.promotionIds[0] ?? null, 60_000);
    await api.status(token, promotionId, 'Executing', 60_000);
    worker.kill('SIGKILL');
    expect(await exited(worker)).toBe('SIGKILL');
    await held.rollback();

    await platform.startWorker();
    const syncing = await api.status(token, promotionId, 'Syncing', 120_000);
    const keyed = await gitText(repo, [
      'log',
      '--format=%H',
      `--grep=^Idempotency-Key: promotion-${promotionId}-`,
      'main',
    ]);
    expect(keyed.trim().split('\n')).toEqual([syncing.commitSha]);
    expect(Number((await gitText(repo, ['rev-list', '--count', 'main'])).trim())).toBe(Number(before) + 1);
    expect((await rolloutOf()).waves[0]!.promotionIds).toEqual([promotionId]);
  }, 200_000);
});
