/**
 * Issue 25 part 2, authority: a credential never confers more than it holds (docs/security.md A-80), invitations die
 * with their sender's rights, service account tokens included.
 */
import { makeUser, tokenFor, type Member } from '../../helpers/fixtures';
import type { HttpResponse } from '../../helpers/http-client';
import { startMailPlatform, type MailPlatform } from '../../helpers/mail-platform';
import { mailedToken } from '../orgs/invitation-mail';

let env: MailPlatform;
let owner: Member;

const ACCOUNTS = '/api/v2/iam/service-accounts';
const errorOf = (res: HttpResponse) => (res.body as { error?: string }).error;
const invitations = () => `/api/v1/organizations/${env.org.slug}/invitations`;

beforeAll(async () => {
  env = await startMailPlatform({ roles: ['owner'] });
  owner = env.members.owner!;
  await env.platform.services.db('organizations').where({ id: env.org.id }).update({ plan: 'enterprise' });
}, 120_000);
afterAll(() => env.close());

/** A service account of `role` and one token of it allowed `allowedActions` with the `admin` scope. */
async function accountToken(role: 'viewer' | 'member' | 'admin', allowedActions: string[]) {
  const name = `sa-${Math.random().toString(36).slice(2, 10)}`;
  const account = await env.http.post<{ id: string }>(ACCOUNTS, { token: owner.token, body: { name, role } });
  expect(account.status).toBe(201);
  const token = await env.http.post<{ token: string }>(`${ACCOUNTS}/${account.body.id}/tokens`, {
    token: owner.token,
    body: { scopes: ['admin'], allowedActions },
  });
  expect(token.status).toBe(201);
  return { accountId: account.body.id, token: token.body.token };
}

describe('a credential never confers more than it holds (A-80)', () => {
  it('a token allowed only to send invitations cannot invite an outside address with any role', async () => {
    const { token } = await accountToken('admin', ['org.invitations.create']);
    for (const role of ['admin', 'member', 'viewer']) {
      const res = await env.http.post(invitations(), { token, body: { email: `out-${role}@example.test`, role } });
      expect([role, res.status]).toEqual([role, 403]);
      expect(errorOf(res)).toMatch(
        new RegExp(`^an invitation with the ${role} role exceeds this credential's allowed`),
      );
    }
    expect(await env.platform.services.db('invitations').where({ organization_id: env.org.id })).toHaveLength(0);
  });

  it('a token whose scopes cap it below admin cannot invite an admin; a full token of an admin account can', async () => {
    const full = await accountToken('admin', ['**']);
    const sent = await env.http.post(invitations(), {
      token: full.token,
      body: { email: 'full-token-guest@example.test', role: 'admin' },
    });
    expect(sent.status).toBe(201);
    const capped = await env.http.post<{ token: string }>(`${ACCOUNTS}/${full.accountId}/tokens`, {
      token: owner.token,
      body: { scopes: ['write'], allowedActions: ['**'] },
    });
    const res = await env.http.post(invitations(), {
      token: capped.body.token,
      body: { email: 'capped-guest@example.test', role: 'admin' },
    });
    expect(res.status).toBe(403);
  });

  it('grants and service account roles are capped the same way', async () => {
    const { token } = await accountToken('admin', ['org.permissions.create', 'org.service-accounts.**']);
    const member = await makeUser(env.platform);
    await env.platform.services
      .db('memberships')
      .insert({ organization_id: env.org.id, user_id: member.user.id, role: 'viewer' });
    const grant = await env.http.post('/api/v2/permissions', {
      token,
      body: {
        subjectType: 'user',
        subjectId: member.user.id,
        resourceType: 'project',
        resourceId: 'web',
        role: 'admin',
      },
    });
    expect([grant.status, errorOf(grant)]).toEqual([
      403,
      expect.stringMatching(/^a grant with the admin role exceeds this credential's allowed actions \(projects\.web\./),
    ]);
    const account = await env.http.post(ACCOUNTS, { token, body: { name: 'escalated', role: 'admin' } });
    expect(account.status).toBe(403);
    expect(await env.platform.services.db('resource_grants').where({ user_id: member.user.id })).toHaveLength(0);
    expect(await env.platform.services.db('service_accounts').where({ name: 'escalated' })).toHaveLength(0);
  });
});

describe('invitations die with their sender (A-81)', () => {
  async function sendAs(token: string, email: string) {
    return mailedToken(env.smtp, email, async () => {
      const res = await env.http.post(invitations(), { token, body: { email, role: 'member' } });
      expect(res.status).toBe(201);
    });
  }

  async function acceptAs(email: string, invitationToken: string) {
    const guest = await makeUser(env.platform, email);
    const res = await env.http.post(`/api/v1/invitations/${invitationToken}/accept`, {
      token: await tokenFor(env.platform, guest.user, null, null),
    });
    const joined = await env.platform.services
      .db('memberships')
      .where({ organization_id: env.org.id, user_id: guest.user.id });
    return { status: res.status, error: errorOf(res), joined: joined.length };
  }

  it('an invitation sent by a service account token is refused once the account is deleted', async () => {
    const { accountId, token } = await accountToken('admin', ['**']);
    const sent = await sendAs(token, 'deleted-account-guest@example.test');
    expect((await env.http.delete(`${ACCOUNTS}/${accountId}`, { token: owner.token })).status).toBe(204);
    expect(await acceptAs('deleted-account-guest@example.test', sent)).toEqual({
      status: 410,
      error: 'invitation has been revoked',
      joined: 0,
    });
  });

  it('and once the account is lowered below the invited role; while it holds, the invitation is accepted', async () => {
    const kept = await accountToken('admin', ['**']);
    const keptSent = await sendAs(kept.token, 'kept-account-guest@example.test');
    expect(await acceptAs('kept-account-guest@example.test', keptSent)).toEqual({
      status: 200,
      error: undefined,
      joined: 1,
    });
    const lowered = await accountToken('admin', ['**']);
    const sent = await sendAs(lowered.token, 'lowered-account-guest@example.test');
    const patch = await env.http.patch(`${ACCOUNTS}/${lowered.accountId}`, {
      token: owner.token,
      body: { role: 'viewer' },
    });
    expect(patch.status).toBe(200);
    expect((await acceptAs('lowered-account-guest@example.test', sent)).status).toBe(410);
  });
});
