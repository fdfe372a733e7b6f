import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { commitCrashScene } from './commit-crash-scene';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
}, 120_000);
afterAll(() => platform.close());

describe('a promotion whose worker is killed during execution', () => {
  it('ends with exactly one commit once another worker takes over', async () => {
    // The commit activity stops inside its transaction (repository lock held) when it sets the promoted tag: that is
    // where its worker is killed.
    const scene = await commitCrashScene(platform, 'crashp', ['acme', 'globex'], ['acme']);
    const { token, api, db } = scene;
    const requested = await api.request(token, 'crashp', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(requested.status).toBe(201);
    await scene.kill(requested.body.id);
    await scene.expectOneCommit(requested.body.id);
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
