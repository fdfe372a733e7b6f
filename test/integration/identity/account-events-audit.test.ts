import { verifyChains } from '../../../src/audit/verify-chain';
import { insertMembership } from '../../../src/orgs/org-repository';
import { makeOrg } from '../../helpers/fixtures';
import {
  cookieHeader,
  enableTotp,
  login,
  signedInUser,
  startIdentityPlatform,
  totp,
  type IdentityEnv,
} from './identity-harness';

/**
 * A member's own account events (logout, a session revoked, password and MFA changes) are audited in the chain of
 * every organization the member belongs to, so each organization's audit view shows them (docs/auth.md "Audit").
 */
let env: IdentityEnv;
beforeAll(async () => {
  env = await startIdentityPlatform();
});
afterAll(() => env.close());

type Item = { action: string; userId: string | null; organizationId: string | null; category: string };

describe('account events of a member of two organizations', () => {
  it("show in both organizations' audit views (category authentication), and every chain verifies", async () => {
    const user = await signedInUser(env);
    const orgs = [await makeOrg(env.platform), await makeOrg(env.platform)];
    for (const o of orgs) await insertMembership(env.platform.services.db, o.org.id, user.userId, 'member');

    expect((await login(env, user.email, user.password, { 'User-Agent': 'second-device' })).status).toBe(200);
    const sessions = await env.http.get<{ items: { id: string; current: boolean }[] }>('/api/v1/auth/sessions', {
      token: user.accessToken,
    });
    const second = sessions.body.items.find((s) => !s.current);
    const revoked = await env.http.delete(`/api/v1/auth/sessions/${second?.id}`, { token: user.accessToken });
    expect(revoked.status).toBe(204);

    const { secret } = await enableTotp(env, user.accessToken);
    const disabled = await env.http.post('/api/v1/auth/mfa/disable', {
      token: user.accessToken,
      body: { code: await totp(secret) },
    });
    expect(disabled.status).toBe(200);

    const changed = await env.http.post('/api/v1/auth/password', {
      token: user.accessToken,
      body: { currentPassword: user.password, newPassword: `${user.password}-2` },
    });
    expect(changed.status).toBe(200);
    expect((await env.http.post('/api/v1/auth/logout', { headers: cookieHeader(user.refresh) })).status).toBe(204);

    const expected = [
      'auth.session.revoke',
      'auth.mfa.enable',
      'auth.mfa.disable',
      'auth.password.change',
      'auth.logout',
    ];
    for (const o of orgs) {
      const view = await env.http.get<{ items: Item[] }>('/api/v2/audit-logs?category=authentication&limit=100', {
        token: o.members.owner!.token,
      });
      expect(view.status).toBe(200);
      const mine = view.body.items.filter((e) => e.userId === user.userId).map((e) => e.action);
      expect(mine).toEqual(expect.arrayContaining(expected));
    }
    expect((await verifyChains(env.platform.services.db)).problems).toEqual([]);
  });
});
