import type { Deployment, Promotion, Release, Workload } from '../../../web/src/api/models';
import { cellReader } from '../../../web/src/views/projects/matrix';

/** The project matrix's cells (web/src/views/projects/matrix.ts): live version and what is in flight per cell. */
describe('cellReader', () => {
  const web: Workload = { name: 'web', image: { repository: 'r/web', tag: '1.0.0' } };
  const deployment = (tenant: string, environment: string, version: string): Deployment => ({
    tenant,
    environment,
    service: 'web',
    desired: { version, revision: 'a'.repeat(40), since: null },
    live: { version, revision: 'a'.repeat(40), syncStatus: 'Synced', healthStatus: 'Healthy', reportedAt: null },
    current: true,
  });
  const promotion = (id: string, status: string, tenants: string[]): Promotion => ({
    id,
    project: 'shop',
    status,
    statusReason: null,
    sourceEnvironment: 'dev',
    targetEnvironment: 'prod',
    moves: tenants.map((tenant) => ({ tenant, tenantId: tenant, changes: [] })),
    causes: null,
    commitSha: null,
    createdBy: 'u',
    createdAt: '2026-01-01T00:00:00Z',
  });
  const release = { id: 'r1', tenant: 'acme', environment: 'dev', status: 'Syncing' } as Release;

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
