import { routeTable } from '../../../api/route-table';
import type { RouteDef } from '../../../api/route-def';
import { listDomainEvents } from '../../../src/events/domain-event-repository';
import { KEY_ALLOWLIST, KEY_SCOPES, type KeyScope } from '../../../src/machine-access/key-allowlist';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, makeProject } from '../gitops/gitops-harness';
import { concretePath, errorOf, rawRequest } from './machine-harness';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
const keys: Partial<Record<KeyScope, { id: string; key: string }>> = {};
let betaKey: string;

const OFF_ALLOWLIST = 'API keys are not accepted on this path';
/** Above what one key spends in this file (the scope table: about 40 calls), so only the hammering test reaches it. */
const RATE_LIMIT = 60;

async function createKey(slug: string, scopes: KeyScope[], name = scopes.join('+')) {
  const res = await http.post<{ id: string; key: string }>(`/api/v2/projects/${slug}/api-keys`, {
    token: owner,
    body: { name, scopes },
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

beforeAll(async () => {
  platform = await startTestPlatform({ env: { MACHINE_RATE_PER_CREDENTIAL: String(RATE_LIMIT) } });
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  await makeProject(platform, owner, 'alpha', ['acme']);
  await makeProject(platform, owner, 'beta', ['acme']);
  for (const scope of KEY_SCOPES) keys[scope] = await createKey('alpha', [scope]);
  betaKey = (await createKey('beta', ['read'])).key;
}, 120_000);
afterAll(() => platform.close());

const routeName = (r: Pick<RouteDef, 'method' | 'path'>) => `${r.method.toUpperCase()} ${r.path}`;

describe('project API keys', () => {
  it('are shown once: svc_ value at creation, metadata and last use in the list, never the value', async () => {
    const read = keys.read!;
    expect(read.key).toMatch(/^svc_[0-9A-Za-z]{46}$/);
    expect((await http.get('/api/v2/projects/alpha', { token: read.key })).status).toBe(200);
    const list = await http.get<{ items: { id: string; scopes: string[]; lastUsedAt: string | null }[] }>(
      '/api/v2/projects/alpha/api-keys',
      { token: owner },
    );
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('svc_');
    const row = list.body.items.find((k) => k.id === read.id);
    expect(row?.scopes).toEqual(['read']);
    expect(row?.lastUsedAt).not.toBeNull();
    const stored = await platform.services.db('project_api_keys').where({ id: read.id }).first();
    expect(JSON.stringify(stored)).not.toContain(read.key.slice(4));
  });

  it('allow exactly the allowlist table, scope by scope (docs/machine-access.md)', async () => {
    const routes = routeTable(platform.services);
    const apiEntries = KEY_ALLOWLIST.filter((e) => e.path.startsWith('/api/'));
    // Every row of the table is a real route: the table cannot drift from the router.
    for (const e of apiEntries)
      expect([routeName(e), routes.some((r) => routeName(r) === routeName(e))]).toEqual([routeName(e), true]);
    for (const scope of KEY_SCOPES) {
      for (const e of apiEntries) {
        const route = routes.find((r) => routeName(r) === routeName(e))!;
        const res = await http.request(e.method.toUpperCase(), concretePath(route, 'alpha'), {
          token: keys[scope]!.key,
          body: route.body ? { __matrix: true } : e.method === 'get' ? undefined : {},
        });
        const where = `${routeName(e)} with ${scope}: ${res.status} ${res.text.slice(0, 160)}`;
        if (e.scopes.includes(scope)) {
          expect([where, res.status === 401 || res.status === 403]).toEqual([where, false]);
          if (route.body) expect([where, res.status]).toEqual([where, 400]);
        } else {
          expect([where, res.status]).toEqual([where, 403]);
        }
      }
    }
  });

  it('answer 403 on every route outside the allowlist, even with the admin scope', async () => {
    const routes = routeTable(platform.services).filter((r) => r.access.kind !== 'public');
    const listed = new Set(KEY_ALLOWLIST.map(routeName));
    let checked = 0;
    for (const route of routes.filter((r) => !listed.has(routeName(r)))) {
      const res = await http.request(route.method.toUpperCase(), concretePath(route, 'alpha'), {
        token: keys.admin!.key,
        body: route.method === 'get' ? undefined : {},
      });
      expect([routeName(route), res.status, errorOf(res)]).toEqual([routeName(route), 403, OFF_ALLOWLIST]);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('refuse every bypass spelling of an off-allowlist path with 403 (A-42)', async () => {
    const key = keys.admin!.key;
    const target = '/api/v2/projects/alpha/api-keys';
    const forms = [
      target,
      '/api/v2/projects/alpha/files/../api-keys',
      '/api/v2/projects/alpha/%2e%2e/alpha/api-keys',
      '/api/v2/projects/alpha/%2E%2E/alpha/api-keys',
      '/api/v2/projects/alpha/./api-keys',
      '//api/v2/projects/alpha/api-keys',
      '/api/v2/projects//alpha/api-keys',
      '/api/v2/projects/alpha%2Fapi-keys',
      '/api/v2/projects/alpha%2fapi-keys',
      '/API/V2/PROJECTS/alpha/api-keys',
      '/api/v2/projects/alpha/API-KEYS',
      `${target}/`,
      `${target};x=1`,
      '/api/v2/projects/alpha;x/api-keys',
      '/api/v2/projects/alpha/files/%2e%2e/api-keys',
      '/api/v2/projects/alpha/files/%252e%252e/api-keys',
      '/x/../api/v2/iam/service-accounts',
      '/api/v2/projects/alpha/files/../../../iam/service-accounts',
    ];
    for (const form of forms) {
      for (const method of ['GET', 'POST']) {
        const res = await rawRequest(platform.url, method, form, key);
        expect([method, form, res.status]).toEqual([method, form, 403]);
      }
    }
    // Allowed paths in a non-canonical spelling are refused too rather than rewritten.
    for (const form of [
      '/api/v2/projects/alpha/files/',
      '/api/v2/projects/x/../alpha/files',
      '/api/v2/projects/%61lpha',
    ]) {
      expect([form, (await rawRequest(platform.url, 'GET', form, key)).status]).toEqual([form, 403]);
    }
    expect((await rawRequest(platform.url, 'GET', '/api/v2/projects/alpha/files', key)).status).toBe(200);
  });

  it('act only in their own project', async () => {
    const alphaRead = keys.read!.key;
    expect((await http.get('/api/v2/projects/alpha/workloads', { token: alphaRead })).status).toBe(200);
    const cross = await http.get('/api/v2/projects/beta/workloads', { token: alphaRead });
    expect([cross.status, errorOf(cross)]).toEqual([
      403,
      'this credential does not allow the action projects.beta.workloads.read',
    ]);
    expect((await http.get('/api/v2/projects/alpha', { token: betaKey })).status).toBe(403);
    expect((await http.get('/api/v2/projects/beta', { token: betaKey })).status).toBe(200);
  });

  it('clone the project repository with a read key, and not with a key of another project', async () => {
    const ok = await cloneInto(cloneUrl(platform, org.org.slug, 'alpha', keys.read!.key));
    expect([ok.ok, ok.stderr]).toEqual([true, expect.not.stringContaining('fatal')]);
    const refused = await cloneInto(cloneUrl(platform, org.org.slug, 'alpha', betaKey));
    expect(refused.ok).toBe(false);
    const imageOnly = await cloneInto(cloneUrl(platform, org.org.slug, 'alpha', keys['image:update']!.key));
    expect(imageOnly.ok).toBe(false);
  });

  it('record the key (id and name, never value) as the actor of what it changes', async () => {
    const admin = keys.admin!;
    const res = await http.patch('/api/v2/projects/alpha', { token: admin.key, body: { description: 'by key' } });
    expect(res.status).toBe(200);
    const entry = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id, action: 'project.update' })
      .orderBy('created_at', 'desc')
      .first('actor_type', 'actor', 'user_id');
    expect(entry).toEqual({ actor_type: 'service_account', actor: `api-key:${admin.id} (admin)`, user_id: null });
  });

  it('audit creation and deletion and emit apikey.create, without the value', async () => {
    const created = await createKey('alpha', ['read'], 'audited');
    const del = await http.delete(`/api/v2/projects/alpha/api-keys/${created.id}`, { token: owner });
    expect(del.status).toBe(204);
    const entries = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id, resource_id: created.id })
      .orderBy('created_at')
      .select('action', 'category', 'details');
    expect(entries.map((e: { action: string; category: string }) => [e.action, e.category])).toEqual([
      ['apikey.create', 'api_keys'],
      ['apikey.delete', 'api_keys'],
    ]);
    expect(JSON.stringify(entries)).not.toContain(created.key);
    const events = await listDomainEvents(platform.services.db, org.org.id);
    const event = events.find((e) => e.type === 'apikey.create' && e.payload.keyId === created.id);
    expect(event?.payload).toMatchObject({ name: 'audited', scopes: ['read'], project: 'alpha' });
    expect(JSON.stringify(events)).not.toContain(created.key);
  });

  it('stop working on the very next call after deletion', async () => {
    const doomed = await createKey('alpha', ['read'], 'doomed');
    expect((await http.get('/api/v2/projects/alpha', { token: doomed.key })).status).toBe(200);
    expect((await http.delete(`/api/v2/projects/alpha/api-keys/${doomed.id}`, { token: owner })).status).toBe(204);
    const after = await http.get('/api/v2/projects/alpha', { token: doomed.key });
    expect([after.status, errorOf(after)]).toEqual([401, 'missing or invalid token']);
    const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'alpha', doomed.key));
    expect(clone.ok).toBe(false);
  });

  it('cannot mint keys, and a mistyped key is refused like a missing one', async () => {
    const mint = await http.post('/api/v2/projects/alpha/api-keys', {
      token: keys.admin!.key,
      body: { name: 'x', scopes: ['admin'] },
    });
    expect(mint.status).toBe(403);
    const typo = `${keys.read!.key.slice(0, -1)}${keys.read!.key.endsWith('A') ? 'B' : 'A'}`;
    expect((await http.get('/api/v2/projects/alpha', { token: typo })).status).toBe(401);
  });

  it('are rate limited per key with 429 and Retry-After', async () => {
    const hot = await createKey('alpha', ['read'], 'hot');
    const cool = await createKey('alpha', ['read'], 'cool');
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof http.get>> | undefined;
    for (let i = 0; i <= RATE_LIMIT && !limited; i += 1) {
      const res = await http.get('/api/v2/projects/alpha/environments', { token: hot.key });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await http.get('/api/v2/projects/alpha', { token: cool.key })).status).toBe(200);
  });
});
