import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';
import { promotionClient, type PromotionBody } from './promotion-harness';

/**
 * Versions at every decision (issue 50): a promotion shows what each target runs now and after and flags a downgrade;
 * the pin a rollback leaves lasts until a later explicit release or promotion into the target, which releases it with
 * a `target.unpin` entry. Real Temporal, PostgreSQL and git over HTTP.
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let releases: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = promotionClient(platform);
  releases = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'member']);
  owner = org.members.owner!.token;
}, 120_000);
afterAll(() => platform.close());

interface UnpinEntry {
  action: string;
  tenantId: string;
  gitCommitSha: string | null;
  details: { environment: string; reason: string; releasedBy: { kind: string; id?: string } };
}

async function unpinEntries(): Promise<UnpinEntry[]> {
  const res = await api.http.get<{ items: UnpinEntry[] }>('/api/v2/audit-logs?action=target.unpin&limit=100', {
    token: owner,
  });
  return res.body.items;
}

/** Rolls `environment` of the tenant back (to its previous Healthy release) and waits for the pin. */
async function rollBack(tenantId: string, environment: string) {
  const target = `/api/v2/tenants/${tenantId}/envs/${environment}`;
  const rollback = await api.http.post<{ id: string }>(`${target}/rollback`, {
    token: org.members.member!.token,
    body: { reason: 'checkout broken' },
  });
  expect(rollback.status).toBe(201);
  const syncing = await releases.status(owner, rollback.body.id, 'Syncing');
  await releases.reportSync(owner, rollback.body.id, syncing.commitSha!);
  await releases.status(owner, rollback.body.id, 'Healthy');
  expect((await api.http.get(`${target}/pin`, { token: owner })).status).toBe(200);
  return target;
}

describe('versions of a promotion', () => {
  it('shows current -> proposed per tenant and service and flags a downgrade of the target', async () => {
    const tenants = await makeProject(platform, owner, 'down', ['acme', 'globex']);
    await api.releaseTo(owner, 'down', 'prod', tenants.acme!, '1.5.0');
    await api.releaseTo(owner, 'down', 'prod', tenants.globex!, '1.3.0');
    await api.releaseToDev(owner, 'down', tenants.acme!, '1.4.0');
    await api.releaseToDev(owner, 'down', tenants.globex!, '1.4.0');

    const requested = await api.request(org.members.member!.token, 'down', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
    });
    expect(requested.status).toBe(201);
    const expected = {
      downgrade: true,
      versions: [
        { tenant: 'acme', workload: 'web', from: '1.5.0', to: '1.4.0', direction: 'downgrade' },
        { tenant: 'globex', workload: 'web', from: '1.3.0', to: '1.4.0', direction: 'upgrade' },
      ],
    };
    expect(requested.body).toMatchObject(expected);
    expect(await api.get(owner, requested.body.id)).toMatchObject(expected);
    const listed = await api.http.get<{ items: PromotionBody[] }>('/api/v2/projects/down/promotions', {
      token: owner,
    });
    expect(listed.body.items.find((p) => p.id === requested.body.id)).toMatchObject(expected);
  });
});

describe('the pin a rollback leaves', () => {
  it('is released, with a target.unpin entry, by a later explicit release into the target', async () => {
    const tenants = await makeProject(platform, owner, 'pinrel', ['acme']);
    await api.releaseToDev(owner, 'pinrel', tenants.acme!, '1.1.0');
    await api.releaseToDev(owner, 'pinrel', tenants.acme!, '1.2.0');
    const target = await rollBack(tenants.acme!, 'dev');

    const forward = await api.releaseToDev(owner, 'pinrel', tenants.acme!, '1.3.0');
    expect(forward.status).toBe('Healthy');
    expect((await api.http.get(`${target}/pin`, { token: owner })).status).toBe(404);
    const entry = (await unpinEntries()).find((e) => e.tenantId === tenants.acme);
    expect(entry).toMatchObject({
      gitCommitSha: forward.commitSha,
      details: { environment: 'dev', releasedBy: { kind: 'release', id: forward.id } },
    });
    expect(entry?.details.reason).toMatch(/^rolled back to release /);
  });

  it('is released by a later promotion into the target', async () => {
    const tenants = await makeProject(platform, owner, 'pinpro', ['acme']);
    await api.releaseTo(owner, 'pinpro', 'prod', tenants.acme!, '1.1.0');
    await api.releaseTo(owner, 'pinpro', 'prod', tenants.acme!, '1.2.0');
    const target = await rollBack(tenants.acme!, 'prod');
    await api.releaseToDev(owner, 'pinpro', tenants.acme!, '1.3.0');

    const requested = await api.request(owner, 'pinpro', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(requested.status).toBe(201);
    const syncing = await api.status(owner, requested.body.id, 'Syncing');
    expect((await api.http.get(`${target}/pin`, { token: owner })).status).toBe(404);
    expect((await unpinEntries()).find((e) => e.tenantId === tenants.acme)).toMatchObject({
      gitCommitSha: syncing.commitSha,
      details: { environment: 'prod', releasedBy: { kind: 'promotion', id: requested.body.id } },
    });
  });
});
