import { randomBytes } from 'node:crypto';
import { routeTable } from '../../../api/route-table';
import { concreteAction } from '../../../api/auth-chain';
import { mountRoutes } from '../../../api/mount-routes';
import type { RouteDef } from '../../../api/route-def';
import { actionRoles } from '../../../src/runtime/modules';
import { KEY_ALLOWLIST } from '../../../src/machine-access/key-allowlist';
import { ROLE_RANK, type OrgRole } from '../../../src/iam/principal';
import { minimumRole, type ActionRoleTable } from '../../../src/iam/role-authorizer';
import { makeInstanceAdmin, makeOrg, makeUser, tokenFor } from '../../helpers/fixtures';
import { httpClient, type HttpResponse } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { AuthChain } from '../../../api/auth-chain';

/** The whole action vocabulary: the kernel's actions and every module's. */
const ACTION_ROLES = actionRoles();

/**
 * Every route of routeTable() against every kind of caller: the four organization roles, a user without an active
 * organization, a removed member whose token still names the organization, the owner of another organization, no
 * token, and an instance administrator. A new route is covered the moment it is added to the table.
 */
const CALLERS = [
  'owner',
  'admin',
  'member',
  'viewer',
  'none',
  'removed',
  'other-org',
  'anonymous',
  'operator',
  'api-key',
  'service-account',
] as const;
type CallerKind = (typeof CALLERS)[number];

/** Problems that make a route table unsafe: a protected route without an action, or one the role table lacks. */
function routeActionProblems(routes: RouteDef[], table: ActionRoleTable): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const name = `${route.method.toUpperCase()} ${route.path}`;
    if (route.access.kind === 'public') continue;
    const action = route.access.action;
    if (!action || !/^[a-z0-9_]+(\.[a-z0-9_{}*-]+)+$/i.test(action)) {
      problems.push(`${name} declares no dotted action`);
      continue;
    }
    if (route.access.kind === 'organization' && minimumRole(table, concreteAction(action, {})) === null) {
      problems.push(`${name} declares ${action}, which has no minimum role in src/iam/action-roles.ts`);
    }
  }
  return problems;
}

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let routes: RouteDef[];
const tokens: Partial<Record<CallerKind, string>> = {};
/** Real identifiers of organization A's resources, by route parameter name. */
const realParams: Record<string, string> = {};
/** Strings that must never appear in an answer to the other organization. */
const secretsOfA: string[] = [];

const RANDOM_UUID = '00000000-0000-4000-8000-000000000000';
const ORG_OWNED_PARAMS = new Set(['slug', 'id', 'teamId', 'grantId', 'tenantId', 'environment', 'userId', 'clusterId']);

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  routes = routeTable(platform.services);
  // Enterprise, so service accounts exist; plan gates of other features are their own tests' business.
  const a = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer'], 'enterprise');
  const b = await makeOrg(platform, ['owner'], 'enterprise');
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) tokens[role] = a.members[role]!.token;
  tokens['other-org'] = b.members.owner!.token;
  const loner = await makeUser(platform);
  tokens.none = await tokenFor(platform, loner.user, null, null);
  const removed = await makeUser(platform);
  tokens.removed = await tokenFor(platform, removed.user, a.org, 'admin');
  tokens.operator = (await makeInstanceAdmin(platform)).token;

  const owner = tokens.owner;
  const team = await http.post<{ id: string }>('/api/v2/teams', { token: owner, body: { slug: 'core', name: 'Core' } });
  const viewerId = a.members.viewer!.user.id;
  await http.post(`/api/v2/teams/${team.body.id}/members`, { token: owner, body: { userId: viewerId } });
  const grant = await http.post<{ id: string }>('/api/v2/permissions', {
    token: owner,
    body: { subjectType: 'user', subjectId: viewerId, resourceType: 'project', resourceId: 'web', role: 'member' },
  });
  const tenant = await http.post<{ id: string }>('/api/v2/org/tenants', {
    token: owner,
    body: { slug: 'acme', name: 'A' },
  });
  await http.post('/api/v2/org/environments', { token: owner, body: { slug: 'prod', production: true } });
  // A project named like the organization, so the `slug` parameter names a real project on project routes too.
  const project = await http.post<{ id: string }>('/api/v2/projects', {
    token: owner,
    body: { slug: a.org.slug, name: 'Matrix' },
  });
  await http.post(`/api/v2/projects/${a.org.slug}/environments`, {
    token: owner,
    body: { environment: 'prod', kubernetesVersion: '1.31' },
  });
  // A rollout plan of that environment, so its read answers 200 to every caller allowed to read it.
  const plan = await http.put(`/api/v2/projects/${a.org.slug}/environments/prod/rollout-plan`, {
    token: owner,
    body: { waves: [{ percent: 100 }] },
  });
  expect(plan.status).toBe(200);
  tokens['api-key'] = (
    await http.post<{ key: string }>(`/api/v2/projects/${a.org.slug}/api-keys`, {
      token: owner,
      body: { name: 'matrix', scopes: ['admin'] },
    })
  ).body.key;
  const account = await http.post<{ id: string }>('/api/v2/iam/service-accounts', {
    token: owner,
    body: { name: 'matrix', role: 'admin' },
  });
  tokens['service-account'] = (
    await http.post<{ token: string }>(`/api/v2/iam/service-accounts/${account.body.id}/tokens`, {
      token: owner,
      body: { scopes: ['admin'], allowedActions: ['**'] },
    })
  ).body.token;
  const cluster = await http.post<{ id: string }>('/api/v2/clusters', { token: owner, body: { name: 'matrix' } });
  const invitation = await http.post<{ id: string }>(`/api/v1/organizations/${a.org.slug}/invitations`, {
    token: owner,
    body: { email: 'matrix@example.test', role: 'viewer' },
  });
  Object.assign(realParams, {
    slug: a.org.slug,
    id: invitation.body.id,
    teamId: team.body.id,
    grantId: grant.body.id,
    tenantId: tenant.body.id,
    environment: 'prod',
    userId: viewerId,
    clusterId: cluster.body.id,
  });
  secretsOfA.push(
    account.body.id,
    project.body.id,
    a.org.id,
    team.body.id,
    grant.body.id,
    tenant.body.id,
    invitation.body.id,
    viewerId,
    cluster.body.id,
  );
});
afterAll(() => platform.close());

const isMutating = (route: RouteDef) => route.method !== 'get';
const hasSchema = (route: RouteDef) => route.body !== undefined || route.query !== undefined;

/**
 * Fills the path. Reads use A's real resources (allowed callers get 200). Writes without a body or query schema use
 * ids that exist nowhere, so an allowed caller reaches the handler (404) without changing anything; writes with a
 * schema get an invalid body instead, which is refused after authorization and before the handler.
 */
function pathFor(route: RouteDef, useReal: boolean): { path: string; unfilled: boolean } {
  let unfilled = false;
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const real = realParams[name];
    if (useReal && real !== undefined && !(name === 'id' && !route.path.includes('/invitations/'))) return real;
    unfilled = true;
    if (name === 'slug') return realParams.slug ?? 'x';
    if (name === 'environment') return 'no-such-env';
    if (name === 'token') return randomBytes(32).toString('base64url');
    return RANDOM_UUID;
  });
  return { path, unfilled };
}

async function call(route: RouteDef, who: CallerKind, useReal: boolean): Promise<HttpResponse & { unfilled: boolean }> {
  const safeWrite = isMutating(route) && !hasSchema(route);
  const { path, unfilled } = pathFor(route, useReal && !safeWrite);
  const query = route.query ? `${path.includes('?') ? '&' : '?'}__matrix=1` : '';
  const res = await http.request(route.method.toUpperCase(), `${path}${query}`, {
    token: who === 'anonymous' ? undefined : tokens[who],
    body: route.body ? { __matrix: true } : isMutating(route) ? {} : undefined,
  });
  return { ...res, unfilled };
}

function errorOf(res: HttpResponse): string {
  return (res.body as { error?: string } | undefined)?.error ?? '';
}

/** The caller got past identity, organization context and authorization (whatever the handler then said). */
function expectAuthorized(route: RouteDef, who: CallerKind, res: HttpResponse & { unfilled: boolean }) {
  const where = `${route.method.toUpperCase()} ${route.path} as ${who}: ${res.status} ${res.text.slice(0, 200)}`;
  expect([where, res.status === 401 || res.status === 403]).toEqual([where, false]);
  expect([where, errorOf(res)]).not.toEqual([where, 'missing organization context']);
  expect([where, errorOf(res)]).not.toEqual([where, 'not found']);
  if (hasSchema(route)) {
    expect([where, res.status, errorOf(res).startsWith('invalid request')]).toEqual([where, 400, true]);
  } else if (!isMutating(route) && !res.unfilled) {
    expect([where, res.status]).toEqual([where, 200]);
  }
}

function expectStatus(route: RouteDef, who: CallerKind, res: HttpResponse, status: number, error?: string) {
  const where = `${route.method.toUpperCase()} ${route.path} as ${who}`;
  expect([where, res.status]).toEqual([where, status]);
  if (error !== undefined) expect([where, errorOf(res)]).toEqual([where, error]);
}

describe('route table', () => {
  it('gives every protected route a dotted action, and every organization action a minimum role', () => {
    expect(routeActionProblems(routes, ACTION_ROLES)).toEqual([]);
  });

  it('would catch a route that forgets its action or declares one the role table lacks', () => {
    const handler = async () => undefined;
    const forgetful: RouteDef = {
      method: 'get',
      path: '/api/v2/forgotten',
      summary: 'x',
      tag: 'x',
      access: { kind: 'organization', action: '' },
      handler,
    };
    const unknown: RouteDef = {
      ...forgetful,
      path: '/api/v2/unknown',
      access: { kind: 'organization', action: 'org.nothing.here' },
    };
    expect(routeActionProblems([forgetful, unknown], ACTION_ROLES)).toEqual([
      'GET /api/v2/forgotten declares no dotted action',
      'GET /api/v2/unknown declares org.nothing.here, which has no minimum role in src/iam/action-roles.ts',
    ]);
    const auth = new AuthChain([], platform.services.authorization);
    expect(() => mountRoutes([forgetful], auth, platform.services.schemas)).toThrow('declares no action');
  });
});

describe('role matrix over HTTP', () => {
  it('answers every route for every caller as the route access and the role table say', async () => {
    let checked = 0;
    for (const route of routes) {
      if (route.access.kind === 'public') {
        if (route.method === 'get' && !route.path.includes(':')) {
          expect((await call(route, 'anonymous', true)).status).not.toBe(401);
          checked += 1;
        }
        continue;
      }
      expectStatus(route, 'anonymous', await call(route, 'anonymous', true), 401, 'missing or invalid token');
      checked += 1;
      for (const who of CALLERS.filter((c) => c !== 'anonymous')) {
        const res = await call(route, who, true);
        checked += 1;
        const access = route.access;
        if (who === 'api-key') {
          // An admin-scoped key of the project: the allowlist decides, then it acts like the admin role there.
          if (KEY_ALLOWLIST.some((e) => e.method === route.method && e.path === route.path)) {
            expectAuthorized(route, who, res);
          } else expectStatus(route, who, res, 403, 'API keys are not accepted on this path');
          continue;
        }
        if (access.kind === 'instance-admin') {
          if (who === 'operator') expectAuthorized(route, who, res);
          else expectStatus(route, who, res, 403, 'instance administrator required');
          continue;
        }
        if (access.kind === 'authenticated') {
          // `machines`: a credential's view of itself (GET /api/v2/whoami) answers machine credentials too.
          if (who === 'service-account' && !access.machines) {
            expectStatus(route, who, res, 403, 'a user session is required');
          } else expectAuthorized(route, who, res);
          continue;
        }
        if (who === 'none' || who === 'operator') {
          expectStatus(route, who, res, 400, 'missing organization context');
          continue;
        }
        if (who === 'removed') {
          expectStatus(route, who, res, 403, 'you are not a member of the active organization');
          continue;
        }
        const needed = minimumRole(ACTION_ROLES, concreteAction(access.action, {})) as OrgRole;
        const role: OrgRole = who === 'other-org' ? 'owner' : who === 'service-account' ? 'admin' : who;
        if (ROLE_RANK[role] < ROLE_RANK[needed]) {
          expectStatus(route, who, res, 403, `this action requires the ${needed} role`);
          continue;
        }
        if (who === 'service-account' && /\.(api-keys|tokens)\.(create|delete)$/.test(access.action)) {
          // Credentials are minted and revoked by people only (src/machine-access/credential-managers.ts); the
          // service says so after request validation, so the invalid matrix body answers 400 first.
          if (hasSchema(route)) expectStatus(route, who, res, 400);
          else expectStatus(route, who, res, 403, 'API keys and tokens are managed by signed-in users only');
          continue;
        }
        if (who !== 'other-org') {
          expectAuthorized(route, who, res);
          continue;
        }
        // Another organization's owner: A's identifiers answer 404 and nothing of A ever comes back.
        const where = `${route.method.toUpperCase()} ${route.path} as other-org`;
        for (const secret of secretsOfA) expect([where, res.text.includes(secret)]).toEqual([where, false]);
        const namesA = [...route.path.matchAll(/:(\w+)/g)].some((m) => ORG_OWNED_PARAMS.has(m[1] ?? ''));
        if (namesA && !hasSchema(route)) expectStatus(route, who, res, 404);
        else expect([where, res.status === 401 || res.status === 403]).toEqual([where, false]);
      }
    }
    expect(checked).toBeGreaterThan(routes.length * 5);
    // About 1,500 requests: 12-80 s here depending on the machine's load.
  }, 300_000);

  it('left organization A untouched by the calls of the other organization', async () => {
    const db = platform.services.db;
    expect(await db('teams').where({ id: realParams.teamId }).first('id')).toBeDefined();
    expect(await db('resource_grants').where({ id: realParams.grantId }).first('id')).toBeDefined();
    expect(await db('org_tenants').where({ id: realParams.tenantId }).first('id')).toBeDefined();
    expect(await db('clusters').where({ id: realParams.clusterId }).first('id')).toBeDefined();
    const invitation = await db('invitations').where({ id: realParams.id }).first('status');
    expect(invitation.status).toBe('pending');
  });
});
