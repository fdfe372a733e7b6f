import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { errorOf, eventually } from './machine-harness';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

const ACCOUNTS = '/api/v2/iam/service-accounts';

async function account(
  role: 'viewer' | 'member' | 'admin',
  name = `${role}-${Math.random().toString(36).slice(2, 8)}`,
) {
  const res = await http.post<{ id: string }>(ACCOUNTS, { token: owner, body: { name, description: 'ci', role } });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body.id;
}

async function token(accountId: string, allowedActions: string[], scopes = ['admin'], expiresIn?: number) {
  const res = await http.post<{ id: string; token: string }>(`${ACCOUNTS}/${accountId}/tokens`, {
    token: owner,
    body: { description: 'pipeline', scopes, allowedActions, ...(expiresIn ? { expiresIn } : {}) },
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

/** Reaches the handler (an invalid body answers 400 after authorization) or is refused (403). */
const tryCreateWorkload = (t: string, slug = 'alpha') =>
  http.post(`/api/v2/projects/${slug}/workloads`, { token: t, body: { __probe: true } });

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner', 'admin'], 'enterprise');
  owner = org.members.owner!.token;
  await makeProject(platform, owner, 'alpha', ['acme']);
  await makeProject(platform, owner, 'beta', ['acme']);
}, 120_000);
afterAll(() => platform.close());

describe('service accounts', () => {
  it('need the Enterprise plan: a Free or Pro organization gets 403 naming it', async () => {
    for (const plan of ['free', 'pro']) {
      const small = await makeOrg(platform, ['owner'], plan);
      const res = await http.post(ACCOUNTS, {
        token: small.members.owner!.token,
        body: { name: 'ci', role: 'viewer' },
      });
      expect([plan, res.status, errorOf(res)]).toEqual([plan, 403, 'Service accounts require the Enterprise plan']);
    }
  });

  it('have CRUD with a base role, and tokens shown once with metadata and last use', async () => {
    const id = await account('member', 'deployer');
    expect((await http.get(`${ACCOUNTS}/${id}`, { token: owner })).body).toMatchObject({
      name: 'deployer',
      role: 'member',
    });
    const dup = await http.post(ACCOUNTS, { token: owner, body: { name: 'deployer', role: 'viewer' } });
    expect(dup.status).toBe(409);
    const patched = await http.patch(`${ACCOUNTS}/${id}`, { token: owner, body: { description: 'deploys' } });
    expect(patched.body).toMatchObject({ description: 'deploys', role: 'member' });
    const t = await token(id, ['projects.alpha.**']);
    expect(t.token).toMatch(/^svcacct_[0-9A-Za-z]{46}$/);
    expect((await http.get('/api/v2/projects/alpha', { token: t.token })).status).toBe(200);
    const list = await http.get<{ items: { id: string; lastUsedAt: string | null; allowedActions: string[] }[] }>(
      `${ACCOUNTS}/${id}/tokens`,
      { token: owner },
    );
    expect(list.text).not.toContain('svcacct_');
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: t.id, allowedActions: ['projects.alpha.**'], lastUsedAt: expect.any(String) }),
    ]);
    expect((await http.get(ACCOUNTS, { token: owner })).body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id })]),
    );
  });

  it('a token limited to projects.alpha.* acts in alpha and not in beta; * never crosses a dot', async () => {
    const t = (await token(await account('admin'), ['projects.alpha.*'])).token;
    expect((await http.get('/api/v2/projects/alpha', { token: t })).status).toBe(200);
    const beta = await http.get('/api/v2/projects/beta', { token: t });
    expect([beta.status, errorOf(beta)]).toEqual([403, 'this credential does not allow the action projects.beta.read']);
    // projects.alpha.workloads.read has two segments after alpha: `*` does not reach it.
    expect((await http.get('/api/v2/projects/alpha/workloads', { token: t })).status).toBe(403);
    expect((await http.get('/api/v2/teams', { token: t })).status).toBe(403);
    const deep = (await token(await account('admin'), ['projects.alpha.**'])).token;
    expect((await http.get('/api/v2/projects/alpha/workloads', { token: deep })).status).toBe(200);
    expect((await http.get('/api/v2/projects/beta/workloads', { token: deep })).status).toBe(403);
  });

  it("never exceed the account's role: a viewer account's ** token cannot write", async () => {
    const viewer = await account('viewer');
    const t = (await token(viewer, ['**'], ['admin'])).token;
    expect((await http.get('/api/v2/projects/alpha/workloads', { token: t })).status).toBe(200);
    const write = await tryCreateWorkload(t);
    expect([write.status, errorOf(write)]).toEqual([403, 'this action requires the member role']);
    expect((await http.patch('/api/v2/projects/alpha', { token: t, body: { description: 'x' } })).status).toBe(403);
    expect((await http.post(ACCOUNTS, { token: t, body: { name: 'escalate', role: 'admin' } })).status).toBe(403);
  });

  it('resource grants apply to service accounts as to users, still within the token', async () => {
    const viewer = await account('viewer');
    const t = (await token(viewer, ['**'], ['write'])).token;
    expect((await tryCreateWorkload(t)).status).toBe(403);
    const grant = await http.post('/api/v2/permissions', {
      token: owner,
      body: {
        subjectType: 'service_account',
        subjectId: viewer,
        resourceType: 'project',
        resourceId: 'alpha',
        role: 'admin',
      },
    });
    expect([grant.status, grant.text.slice(0, 200)]).toEqual([201, expect.any(String)]);
    expect((await tryCreateWorkload(t)).status).toBe(400);
    expect((await tryCreateWorkload(t, 'beta')).status).toBe(403);
    // The grant says admin, the token's `write` scope caps it at member: project settings stay out of reach.
    expect((await http.patch('/api/v2/projects/alpha', { token: t, body: { description: 'x' } })).status).toBe(403);
  });

  it('token scopes cap the role: an admin account with a read token cannot write', async () => {
    const t = (await token(await account('admin'), ['**'], ['read'])).token;
    expect((await http.get('/api/v2/projects/alpha', { token: t })).status).toBe(200);
    expect((await tryCreateWorkload(t)).status).toBe(403);
  });

  it('an expired token answers 401', async () => {
    const t = (await token(await account('admin'), ['**'], ['read'], 1)).token;
    const expired = await eventually(
      async () => (await http.get('/api/v2/projects/alpha', { token: t })).status === 401,
    );
    expect(expired).toBe(true);
  });

  it('a deleted token, or a token of a deleted account, answers 401 on its next call', async () => {
    const id = await account('member');
    const first = await token(id, ['**']);
    const second = await token(id, ['**']);
    expect((await http.get('/api/v2/projects/alpha', { token: first.token })).status).toBe(200);
    expect((await http.delete(`${ACCOUNTS}/${id}/tokens/${first.id}`, { token: owner })).status).toBe(204);
    expect((await http.get('/api/v2/projects/alpha', { token: first.token })).status).toBe(401);
    // Rotation: the other token of the same account keeps working.
    expect((await http.get('/api/v2/projects/alpha', { token: second.token })).status).toBe(200);
    expect((await http.delete(`${ACCOUNTS}/${id}`, { token: owner })).status).toBe(204);
    expect((await http.get('/api/v2/projects/alpha', { token: second.token })).status).toBe(401);
  });

  it('cannot mint tokens, even with an admin role and **', async () => {
    const id = await account('admin');
    const t = (await token(id, ['**'])).token;
    const mint = await http.post(`${ACCOUNTS}/${id}/tokens`, {
      token: t,
      body: { scopes: ['admin'], allowedActions: ['**'] },
    });
    expect([mint.status, errorOf(mint)]).toEqual([403, 'API keys and tokens are managed by signed-in users only']);
  });

  it('are audited: account and token changes, and actions record the token id, never a value', async () => {
    const id = await account('admin', 'audited');
    const t = await token(id, ['**']);
    expect((await http.patch('/api/v2/projects/alpha', { token: t.token, body: { description: 'sa' } })).status).toBe(
      200,
    );
    await http.delete(`${ACCOUNTS}/${id}/tokens/${t.id}`, { token: owner });
    const db = platform.services.db;
    const own = await db('audit_log')
      .where({ organization_id: org.org.id, category: 'service_accounts' })
      .whereIn('resource_id', [id, t.id])
      .orderBy('created_at')
      .select('action', 'details');
    expect(own.map((e: { action: string }) => e.action)).toEqual([
      'service_account.create',
      'service_account.token.create',
      'service_account.token.delete',
    ]);
    expect(JSON.stringify(own)).not.toContain(t.token);
    const acted = await db('audit_log')
      .where({ organization_id: org.org.id, action: 'project.update' })
      .orderBy('created_at', 'desc')
      .first('actor_type', 'actor');
    expect(acted).toEqual({ actor_type: 'service_account', actor: `service-account:${id}/token:${t.id} (audited)` });
  });

  it('refuses malformed action patterns', async () => {
    const id = await account('viewer');
    const res = await http.post(`${ACCOUNTS}/${id}/tokens`, {
      token: owner,
      body: { scopes: ['read'], allowedActions: ['projects.**.**.**.**'] },
    });
    expect(res.status).toBe(400);
  });
});

describe('effective permissions of a token', () => {
  it('show the restriction and decide as the chain does', async () => {
    const t = (await token(await account('admin'), ['projects.alpha.**'], ['write'])).token;
    const res = await http.get('/api/v2/iam/me/permissions?action=projects.beta.read', { token: t });
    // The token's own patterns do not cover org.iam.self.read: the view is refused like any other action.
    expect(res.status).toBe(403);
    const wide = (await token(await account('admin'), ['**'], ['write'])).token;
    const mine = await http.get<{
      restriction: { allowedActions: string[]; roleCap: string };
      allowedActions: string[];
      decision: { allowed: boolean; reason: string };
    }>('/api/v2/iam/me/permissions?action=projects.beta.update', { token: wide });
    expect(mine.status).toBe(200);
    expect(mine.body.restriction).toMatchObject({ allowedActions: ['**'], roleCap: 'member' });
    expect(mine.body.allowedActions).not.toContain('projects.*.update');
    expect(mine.body.decision).toMatchObject({ allowed: false, reason: 'credential-restriction' });
  });
});
