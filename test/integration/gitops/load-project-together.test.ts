import { projectBindingRows, projectBindings } from '../../../src/clusters/agent-binding-repository';
import { readTogether } from '../../../src/db/rows-together';
import { loadProject } from '../../../src/gitops/delivery-model';
import { listProjectEnvironments } from '../../../src/projects/project-environment-repository';
import { findProjectById } from '../../../src/projects/project-repository';
import { listProjectTenants } from '../../../src/projects/project-tenant-repository';
import { listWorkloads } from '../../../src/projects/workload-repository';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from './gitops-harness';

/**
 * Issue 46: a release, promotion or image update loads its project before the commit. The project, its tenants,
 * environments, workloads and cluster bindings come in one statement, each exactly as its own read gives it: JSON
 * columns, arrays, timestamps and every list's order.
 */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
}, 120_000);
afterAll(() => platform.close());

it('reads the project with its tenants, environments, workloads and bindings in one statement', async () => {
  const { org, members } = await makeOrg(platform, ['owner']);
  const token = members.owner!.token;
  const http = httpClient(platform.url);
  // Tenants added out of their slug order: the list comes back by slug all the same.
  await makeProject(platform, token, 'together', ['zeta', 'acme', 'mid'], {
    variables: { LOG_LEVEL: 'debug', REGION: 'eu' },
  });
  const api = await http.post('/api/v2/projects/together/workloads', {
    token,
    body: {
      name: 'api',
      image: { repository: 'registry.example.com/shop/api', tag: '2.1.0' },
      ports: [{ name: 'grpc', containerPort: 9090 }],
      dependsOn: ['web'],
    },
  });
  expect(api.status).toBe(201);
  for (const name of ['eu-two', 'eu-one']) {
    const cluster = await http.post<{ id: string }>('/api/v2/clusters', { token, body: { name } });
    expect(cluster.status).toBe(201);
    const binding = await http.post('/api/v2/agent-bindings', {
      token,
      body: { clusterId: cluster.body.id, project: 'together', environments: ['prod'], followAgentVersion: false },
    });
    expect(binding.status).toBe(201);
  }
  const s = platform.services;
  const { id: projectId } = (await s
    .db('projects')
    .where({ organization_id: org.id, slug: 'together' })
    .first('id')) as {
    id: string;
  };
  const ctx = { publicUrl: 'https://delivery.example.test', sources: s.sources };

  const queries: string[] = [];
  const count = (q: { sql: string }) => queries.push(q.sql);
  s.db.on('query', count);
  const loaded = await loadProject(s.db, org.id, projectId, ctx);
  s.db.off('query', count);
  expect(queries).toHaveLength(1);

  expect(loaded!.project).toEqual(await findProjectById(s.db, org.id, projectId));
  expect(loaded!.tenants).toEqual(await listProjectTenants(s.db, org.id, projectId));
  expect(loaded!.tenants.map((t) => t.slug)).toEqual(['acme', 'mid', 'zeta']);
  expect(loaded!.environments).toEqual(await listProjectEnvironments(s.db, projectId));
  expect(loaded!.environments.map((e) => e.environment)).toEqual(['dev', 'prod']);
  expect(loaded!.workloads).toEqual(await listWorkloads(s.db, projectId));
  expect(loaded!.workloads.map((w) => [w.name, w.dependsOn])).toEqual([
    ['api', ['web']],
    ['web', []],
  ]);
  // Timestamps as the driver gives them alone (ISO text of a Date), not PostgreSQL's JSON spelling.
  expect(loaded!.workloads[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const bindings = await readTogether(s.db, { bindings: projectBindingRows(s.db, org.id, projectId) });
  expect(bindings.bindings).toEqual(await projectBindings(s.db, org.id, projectId));
  expect(bindings.bindings.map((b) => b.clusterName)).toEqual(['eu-two', 'eu-one']);
  expect(loaded!.model.destinations).toEqual(
    (await loadProject(s.db, org.id, projectId, ctx, ['web', 'api']))!.model.destinations,
  );

  // Narrowed to the workloads a change moves; another organization's id finds nothing.
  const narrowed = await loadProject(s.db, org.id, projectId, ctx, ['web']);
  expect(narrowed!.workloads).toEqual(await listWorkloads(s.db, projectId, ['web']));
  const other = await makeOrg(platform, ['owner']);
  expect(await loadProject(s.db, other.org.id, projectId, ctx)).toBeNull();
});
