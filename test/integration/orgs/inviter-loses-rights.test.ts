/**
 * Issue 16 item 7: an admin who is removed, or lowered below admin, leaves no way back in through the invitations
 * they sent. Their pending invitations are revoked through their workflows with the change, audited with the
 * reason; and an accept still checks that the sender can invite, should a revocation not have reached a workflow.
 */
import { insertMembership } from '../../../src/orgs/org-repository';
import { makeOrg, makeUser, tokenFor, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import type { SmtpCapture } from '../../helpers/smtp-capture';
import { startMailPlatform, type MailPlatform } from '../../helpers/mail-platform';
import type { TestPlatform } from '../../helpers/test-platform';
import { mailedToken } from './invitation-mail';

let env: MailPlatform;
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let smtp: SmtpCapture;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let owner: Member;

beforeAll(async () => {
  env = await startMailPlatform({ env: {}, roles: ['owner'] });
  ({ platform, smtp, http, org } = env);
  owner = env.members.owner!;
});
afterAll(() => env.close());

/** A fresh admin of the organization with a token of their own. */
async function newAdmin(): Promise<Member> {
  const made = await makeUser(platform);
  await insertMembership(platform.services.db, org.id, made.user.id, 'admin');
  return { ...made, token: await tokenFor(platform, made.user, org, 'admin') };
}

async function inviteAs(admin: Member, email: string) {
  let id = '';
  const token = await mailedToken(smtp, email, async () => {
    const res = await http.post<{ id: string }>(`/api/v1/organizations/${org.slug}/invitations`, {
      token: admin.token,
      body: { email, role: 'member' },
    });
    expect(res.status).toBe(201);
    id = res.body.id;
  });
  return { id, token };
}

async function revocation(invitationId: string) {
  const row = await platform.services.db('invitations').where({ id: invitationId }).first('status', 'workflow_id');
  const entry = await platform.services
    .db('audit_log')
    .where({ resource_id: invitationId, action: 'invitation.revoke' })
    .first('actor', 'details');
  const result = await platform.services.temporal.workflow.getHandle(row.workflow_id).result();
  return { status: row.status, entry, workflowStatus: (result as { status: string }).status };
}

const members = () => `/api/v1/organizations/${org.slug}/members`;

describe('an inviter who loses the right to invite', () => {
  it('removed: their pending invitations are revoked with the removal, audited with the reason', async () => {
    const admin = await newAdmin();
    const sent = await inviteAs(admin, 'removed-inviter-guest@example.test');
    const other = await inviteAs(owner, 'owner-guest@example.test');
    expect((await http.delete(`${members()}/${admin.user.id}`, { token: owner.token })).status).toBe(204);
    expect(await revocation(sent.id)).toEqual({
      status: 'revoked',
      entry: {
        actor: owner.user.email,
        details: expect.objectContaining({ reason: 'inviter removed from the organization' }),
      },
      workflowStatus: 'revoked',
    });
    // Invitations of others are untouched.
    const untouched = await platform.services.db('invitations').where({ id: other.id }).first('status');
    expect(untouched.status).toBe('pending');
    expect((await http.get(`/api/v1/invitations/${sent.token}`)).status).toBe(410);
  });

  it('lowered below admin: the same; raised or kept at admin level: nothing changes', async () => {
    const admin = await newAdmin();
    const sent = await inviteAs(admin, 'demoted-inviter-guest@example.test');
    const toOwner = await http.patch(`${members()}/${admin.user.id}`, { token: owner.token, body: { role: 'owner' } });
    expect(toOwner.status).toBe(200);
    expect((await platform.services.db('invitations').where({ id: sent.id }).first('status')).status).toBe('pending');
    const toMember = await http.patch(`${members()}/${admin.user.id}`, {
      token: owner.token,
      body: { role: 'member' },
    });
    expect(toMember.status).toBe(200);
    await eventually(
      async () =>
        (await platform.services.db('invitations').where({ id: sent.id }).first('status')).status === 'revoked' || null,
      10_000,
      'invitation revoked',
    );
    const { entry } = await revocation(sent.id);
    expect(entry.details.reason).toBe("inviter's role lowered to member");
  });

  it('accept refuses an invitation whose sender can no longer invite, even if no revocation reached it', async () => {
    const admin = await newAdmin();
    const guest = await makeUser(platform, 'late-guest@example.test');
    const sent = await inviteAs(admin, guest.user.email);
    // The demotion happens behind the service's back (as if the revocation had been lost).
    await platform.services
      .db('memberships')
      .where({ organization_id: org.id, user_id: admin.user.id })
      .update({ role: 'viewer' });
    const accept = await http.post(`/api/v1/invitations/${sent.token}/accept`, {
      token: await tokenFor(platform, guest.user, null, null),
    });
    expect([accept.status, (accept.body as { error: string }).error]).toEqual([410, 'invitation has been revoked']);
    expect(
      await platform.services.db('memberships').where({ organization_id: org.id, user_id: guest.user.id }),
    ).toHaveLength(0);
  });
});
