import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * Service order (issue 48): a workload names the workloads it depends on; an unknown name or a cycle answers 422
 * naming it, on create and on update, and a workload others depend on cannot be deleted (409).
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let owner: string;
const base = '/api/v2/projects/shop/workloads';

const create = (name: string, dependsOn?: string[]) =>
  http.post<{ dependsOn?: string[]; error?: string }>(base, {
    token: owner,
    body: { name, image: { repository: `registry.example.com/shop/${name}`, tag: '1.0.0' }, dependsOn },
  });

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  owner = (await makeOrg(platform, ['owner'])).members.owner!.token;
  expect((await http.post('/api/v2/projects', { token: owner, body: { slug: 'shop', name: 'Shop' } })).status).toBe(
    201,
  );
}, 120_000);
afterAll(() => platform.close());

describe('workload dependsOn', () => {
  it('is stored and answered', async () => {
    expect((await create('migrate')).body.dependsOn).toEqual([]);
    const api = await create('api', ['migrate']);
    expect(api.status).toBe(201);
    expect(api.body.dependsOn).toEqual(['migrate']);
    expect((await create('web', ['api'])).status).toBe(201);
    const got = await http.get<{ dependsOn: string[] }>(`${base}/web`, { token: owner });
    expect(got.body.dependsOn).toEqual(['api']);
  });

  it('refuses an unknown workload and a cycle with 422 naming them', async () => {
    const unknown = await create('worker', ['ghost']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toBe('workload worker depends on unknown workload ghost');
    const self = await create('loner', ['loner']);
    expect([self.status, self.body.error]).toEqual([422, 'dependsOn forms a cycle: loner -> loner']);

    const cycle = await http.patch<{ error: string }>(`${base}/migrate`, {
      token: owner,
      body: { dependsOn: ['web'] },
    });
    expect(cycle.status).toBe(422);
    expect(cycle.body.error).toBe('dependsOn forms a cycle: api -> migrate -> web -> api');
    const unchanged = await http.get<{ dependsOn: string[] }>(`${base}/migrate`, { token: owner });
    expect(unchanged.body.dependsOn).toEqual([]);
  });

  it('changes by update, and keeps a dependency from being deleted', async () => {
    const changed = await http.patch<{ dependsOn: string[] }>(`${base}/web`, {
      token: owner,
      body: { dependsOn: ['api', 'migrate'] },
    });
    expect([changed.status, changed.body.dependsOn]).toEqual([200, ['api', 'migrate']]);
    const refused = await http.delete<{ error: string }>(`${base}/migrate`, { token: owner });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('workload migrate is in the dependsOn of api, web; remove it there first');
    expect((await http.delete(`${base}/web`, { token: owner })).status).toBe(200);
  });
});
