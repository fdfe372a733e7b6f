import { createTestDatabase, type TestDatabase } from '../../helpers/test-db';

/**
 * The deployed state's rows hold one key each, the tenant with its project and organization (migration
 * 20261202170000, issue 46: one lookup a row where three were checked): a row naming a tenant of another project or
 * organization is refused, and deleting the tenant, its project or its organization removes the rows.
 */
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

async function tenantOf(slug: string) {
  const [org] = await t.db('organizations').insert({ slug, name: slug }).returning('id');
  const [project] = await t.db('projects').insert({ organization_id: org.id, slug, name: slug }).returning('id');
  const [orgTenant] = await t
    .db('org_tenants')
    .insert({ organization_id: org.id, slug: 'acme', name: 'Acme' })
    .returning('id');
  const [tenant] = await t
    .db('project_tenants')
    .insert({
      organization_id: org.id,
      project_id: project.id,
      org_tenant_id: orgTenant.id,
      slug: 'acme',
      name: 'Acme',
    })
    .returning('id');
  return { organizationId: org.id as string, projectId: project.id as string, tenantId: tenant.id as string };
}

const target = (ids: { organizationId: string; projectId: string; tenantId: string }) => ({
  organization_id: ids.organizationId,
  project_id: ids.projectId,
  tenant_id: ids.tenantId,
  tenant_slug: 'acme',
  environment: 'dev',
  service: 'web',
});

const event = (ids: { organizationId: string; projectId: string; tenantId: string }) => ({
  organization_id: ids.organizationId,
  project_id: ids.projectId,
  tenant_id: ids.tenantId,
  environment: 'dev',
  service: 'web',
  kind: 'commit',
  revision: 'a'.repeat(40),
  at: new Date(),
});

it("refuses a row whose tenant is another project's or another organization's", async () => {
  const one = await tenantOf('one');
  const two = await tenantOf('two');
  for (const ids of [
    { ...one, tenantId: two.tenantId },
    { ...one, projectId: two.projectId },
    { ...one, organizationId: two.organizationId },
  ]) {
    await expect(t.db('deployed_targets').insert(target(ids))).rejects.toThrow(/deployed_targets_tenant_foreign/);
    await expect(t.db('deployed_target_events').insert(event(ids))).rejects.toThrow(
      /deployed_target_events_tenant_foreign/,
    );
  }
  await t.db('deployed_targets').insert(target(one));
  await t.db('deployed_target_events').insert(event(one));
  expect(await t.db('deployed_targets').where({ project_id: one.projectId }).count({ n: '*' })).toEqual([{ n: '1' }]);
});

it('removes the rows with their tenant, their project or their organization', async () => {
  const rows = async (ids: { projectId: string }) =>
    Number((await t.db('deployed_targets').where({ project_id: ids.projectId }).count({ n: '*' }))[0]!.n) +
    Number((await t.db('deployed_target_events').where({ project_id: ids.projectId }).count({ n: '*' }))[0]!.n);
  const removals: [
    string,
    (ids: { organizationId: string; projectId: string; tenantId: string }) => Promise<unknown>,
  ][] = [
    ['tenant', (ids) => t.db('project_tenants').where({ id: ids.tenantId }).delete()],
    ['project', (ids) => t.db('projects').where({ id: ids.projectId }).delete()],
    ['organization', (ids) => t.db('organizations').where({ id: ids.organizationId }).delete()],
  ];
  for (const [what, remove] of removals) {
    const ids = await tenantOf(`gone-${what}`);
    await t.db('deployed_targets').insert(target(ids));
    await t.db('deployed_target_events').insert(event(ids));
    expect(await rows(ids)).toBe(2);
    await remove(ids);
    expect({ what, rows: await rows(ids) }).toEqual({ what, rows: 0 });
  }
});
