import type { Deployment, PromotionSummary, ReleaseSummary, Workload } from '../../../web/src/api/models';
import { cellReader } from '../../../web/src/views/projects/matrix';
import { answer } from '../../helpers/response-fixture';

/** The project matrix's cells (web/src/views/projects/matrix.ts): live version and what is in flight per cell. */
describe('cellReader', () => {
  const [workload] = answer('/api/v2/projects/{slug}/workloads', 'get').items;
  const web: Workload = { ...workload!, name: 'web', image: { repository: 'r/web', tag: '1.0.0' }, overrides: {} };
  const [someDeployment] = answer('/api/v2/projects/{slug}/deployments', 'get').items;
  const deployment = (tenant: string, environment: string, version: string): Deployment => ({
    ...someDeployment!,
    tenant,
    environment,
    service: 'web',
    desired: { ...someDeployment!.desired!, version, revision: 'a'.repeat(40), since: null },
    live: {
      ...someDeployment!.live!,
      version,
      revision: 'a'.repeat(40),
      syncStatus: 'Synced',
      healthStatus: 'Healthy',
    },
    current: true,
  });
  const [somePromotion] = answer('/api/v2/projects/{slug}/promotions', 'get').items;
  const promotion = (id: string, status: PromotionSummary['status'], tenants: string[]): PromotionSummary => ({
    ...somePromotion!,
    id,
    status,
    sourceEnvironment: 'dev',
    targetEnvironment: 'prod',
    moves: tenants.map((tenant) => ({ tenant, tenantId: tenant, changes: [] })),
  });
  const [someRelease] = answer('/api/v2/projects/{slug}/releases', 'get').items;
  const release: ReleaseSummary = { ...someRelease!, id: 'r1', tenant: 'acme', environment: 'dev', status: 'Syncing' };

  it('reads the live version of the cell and the unfinished release and promotion that target it', () => {
    const read = cellReader({
      pins: [],
      freezes: [],
      releases: [release],
      promotions: [promotion('done', 'Healthy', ['acme']), promotion('open', 'Blocked', ['acme'])],
      deployments: [deployment('acme', 'dev', '1.1.0'), deployment('acme', 'prod', '0.9.0')],
    });
    const dev = read(web, 'acme', 'dev');
    expect([dev.tag, dev.deployment?.live?.version, dev.inFlight?.id, dev.promotion]).toEqual([
      '1.0.0',
      '1.1.0',
      'r1',
      null,
    ]);
    const prod = read(web, 'acme', 'prod');
    expect([prod.deployment?.live?.version, prod.inFlight, prod.promotion?.id]).toEqual(['0.9.0', null, 'open']);
    const other = read(web, 'globex', 'prod');
    expect([other.deployment, other.promotion]).toEqual([null, null]);
  });
});
