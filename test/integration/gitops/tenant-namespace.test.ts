/**
 * Issue 26 item 1: a tenant's own namespace template (beside the project's and the environment's) is shown in the
 * API, shows in the preview as its destinations and modified Applications, and is committed by generate; null gives
 * the environment's or project's back; a malformed template answers 400 and changes nothing.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, makeProject } from './gitops-harness';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let owner: string;
let orgSlug: string;
const clones: string[] = [];

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  const org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  orgSlug = org.org.slug;
}, 120_000);
afterAll(async () => {
  await Promise.all(clones.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  await platform.close();
});

type Preview = {
  destinations: { tenant: string; environment: string; cluster: string; namespace: string }[];
  targets: { files: { path: string; status: string }[] }[];
};

const preview = async (query = '') =>
  (await http.get<Preview>(`/api/v2/projects/shop/delivery/preview?changedOnly=true${query}`, { token: owner })).body;

describe("a tenant's namespace template", () => {
  it('is shown, previewed as destinations and modified Applications, committed, and reset by null', async () => {
    const tenants = await makeProject(platform, owner, 'shop', ['acme', 'beta']);
    const project = await http.patch('/api/v2/projects/shop', {
      token: owner,
      body: { argocd: { namespaceTemplate: '{project}-{tenant}-{environment}' } },
    });
    expect(project.status).toBe(200);
    expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);

    const bad = await http.patch(`/api/v2/tenants/${tenants.acme}`, {
      token: owner,
      body: { namespaceTemplate: 'Team_{tenant}' },
    });
    expect(bad.status).toBe(400);
    const set = await http.patch<{ namespaceTemplate: string | null; name: string }>(
      `/api/v2/tenants/${tenants.acme}`,
      { token: owner, body: { namespaceTemplate: 'team-{tenant}-{environment}' } },
    );
    expect([set.status, set.body.namespaceTemplate, set.body.name]).toEqual([
      200,
      'team-{tenant}-{environment}',
      'acme',
    ]);
    const read = await http.get<{ namespaceTemplate: string | null }>(`/api/v2/tenants/${tenants.acme}`, {
      token: owner,
    });
    expect(read.body.namespaceTemplate).toBe('team-{tenant}-{environment}');

    const changed = await preview();
    expect(changed.destinations.map((d) => `${d.tenant}/${d.environment} ${d.cluster}/${d.namespace}`)).toEqual([
      'acme/dev in-cluster/team-acme-dev',
      'acme/prod in-cluster/team-acme-prod',
      'beta/dev in-cluster/shop-beta-dev',
      'beta/prod in-cluster/shop-beta-prod',
    ]);
    expect((await preview('&tenant=beta')).destinations.map((d) => d.namespace)).toEqual([
      'shop-beta-dev',
      'shop-beta-prod',
    ]);
    expect(changed.targets.flatMap((t) => t.files.map((f) => `${f.path} ${f.status}`))).toEqual([
      'applications/acme/dev/web.yaml modified',
      'applications/acme/prod/web.yaml modified',
    ]);
    expect((await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} })).status).toBe(200);
    const clone = await cloneInto(cloneUrl(platform, orgSlug, 'shop', owner));
    clones.push(clone.dir);
    const app = load(await fs.readFile(path.join(clone.dir, 'applications/acme/prod/web.yaml'), 'utf8')) as {
      spec: { destination: { namespace: string } };
    };
    expect(app.spec.destination.namespace).toBe('team-acme-prod');

    const reset = await http.patch<{ namespaceTemplate: string | null }>(`/api/v2/tenants/${tenants.acme}`, {
      token: owner,
      body: { namespaceTemplate: null },
    });
    expect([reset.status, reset.body.namespaceTemplate]).toEqual([200, null]);
    expect((await preview('&tenant=acme')).destinations.map((d) => d.namespace)).toEqual([
      'shop-acme-dev',
      'shop-acme-prod',
    ]);
    const audit = await http.get<{ items: { action: string }[] }>(
      '/api/v2/audit-logs?action=project.tenant.update&limit=10',
      { token: owner },
    );
    expect(audit.body.items).toHaveLength(2);
  });
});
