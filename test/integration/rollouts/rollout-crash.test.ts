import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { eventually } from '../../helpers/net';
import { commitCrashScene } from '../promotions/commit-crash-scene';

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
    // The wave's commit stops inside its transaction on the held workload row: its worker is killed there.
    const scene = await commitCrashScene(platform, 'crashr', ['acme', 'globex'], ['acme', 'globex']);
    const { token, api } = scene;
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
    await scene.kill(promotionId);
    await scene.expectOneCommit(promotionId);
    expect((await rolloutOf()).waves[0]!.promotionIds).toEqual([promotionId]);
  }, 200_000);
});
