import { SEARCH_ATTRIBUTES } from '../../../src/temporal/definitions';
import { invitationStateQuery } from '../../../src/invitations/invitation-workflow-contract';
import { hashInvitationToken } from '../../../src/invitations/invitation-token';
import { makeOrg, makeUser, tokenFor, type Member } from '../../helpers/fixtures';
import { httpClient, type HttpResponse } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { startSmtpCapture, type SmtpCapture } from '../../helpers/smtp-capture';
import { mailedToken } from './invitation-mail';

interface InvitationBody {
  id: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string;
  workflowId: string;
  mail: { status: string; sentAt: string | null };
}

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let smtp: SmtpCapture;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let owner: Member;
let admin: Member;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  platform = await startTestPlatform({ env: { SMTP_URL: smtp.url, INVITATION_TTL: '1h' } });
  http = httpClient(platform.url);
  const made = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer']);
  org = made.org;
  owner = made.members.owner!;
  admin = made.members.admin!;
});
afterAll(async () => {
  await platform.close();
  await smtp.close();
});

const invitationsPath = () => `/api/v1/organizations/${org.slug}/invitations`;

async function invite(email: string, role = 'member', token = admin.token) {
  let invitation: InvitationBody | undefined;
  const mailed = await mailedToken(smtp, email, async () => {
    const res = await http.post<InvitationBody>(invitationsPath(), { token, body: { email, role } });
    expect(res.status).toBe(201);
    invitation = res.body;
  });
  return { invitation: invitation!, token: mailed };
}

async function auditActions(resourceId: string): Promise<string[]> {
  return (await platform.services
    .db('audit_log')
    .where({ organization_id: org.id, resource_id: resourceId })
    .orderBy('seq')
    .pluck('action')) as string[];
}

describe('sending', () => {
  it('creates a pending invitation, mails the token and stores only its hash', async () => {
    const email = 'new.person@example.test';
    const { invitation, token } = await invite(email);
    // The workflow mails the token: the answer comes before the mail, which `invite` then waits for.
    expect(invitation).toMatchObject({ email, role: 'member', status: 'pending', mail: { status: 'pending' } });
    expect(invitation.workflowId).toBe(`invitation-${invitation.id}`);
    expect(invitation).not.toHaveProperty('token');
    expect(invitation).not.toHaveProperty('tokenHash');
    const row = await platform.services.db('invitations').where({ id: invitation.id }).first();
    expect(row.token_hash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const expiresIn = Date.parse(invitation.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(59 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);
    expect(await auditActions(invitation.id)).toEqual(['invitation.create']);
  });

  it('runs one workflow per invitation, with its search attributes visible in Temporal', async () => {
    const { invitation } = await invite('visible@example.test');
    const handle = platform.services.temporal.workflow.getHandle(invitation.workflowId);
    const described = await handle.describe();
    expect(described.status.name).toBe('RUNNING');
    expect(described.type).toBe('invitationWorkflow');
    expect(described.typedSearchAttributes.get(SEARCH_ATTRIBUTES.organizationId)).toBe(org.id);
    expect(described.typedSearchAttributes.get(SEARCH_ATTRIBUTES.resourceStatus)).toBe('pending');
    const listed = await eventually(
      async () => {
        const ids: string[] = [];
        for await (const wf of platform.services.temporal.workflow.list({
          query: `OrganizationId = '${org.id}' AND WorkflowType = 'invitationWorkflow'`,
        })) {
          ids.push(wf.workflowId);
        }
        return ids.includes(invitation.workflowId) ? ids : null;
      },
      15_000,
      'visibility listing by OrganizationId',
    );
    expect(listed).toContain(invitation.workflowId);
    expect(await handle.query(invitationStateQuery)).toMatchObject({ status: 'pending', reissues: 0 });
  });

  it('answers a retried identical send with the pending invitation and its running workflow', async () => {
    const { invitation } = await invite('retry@example.test', 'viewer');
    const runBefore = (await platform.services.temporal.workflow.getHandle(invitation.workflowId).describe()).runId;
    const again = await http.post<InvitationBody>(invitationsPath(), {
      token: admin.token,
      body: { email: 'Retry@Example.test', role: 'viewer' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: invitation.id });
    expect(smtp.to('retry@example.test')).toHaveLength(1);
    const runAfter = (await platform.services.temporal.workflow.getHandle(invitation.workflowId).describe()).runId;
    expect(runAfter).toBe(runBefore);
    const otherRole = await http.post(invitationsPath(), {
      token: admin.token,
      body: { email: 'retry@example.test', role: 'admin' },
    });
    expect(otherRole.status).toBe(409);
  });

  it('lets only owners and admins send, and only owners invite owners', async () => {
    const body = { email: 'x@example.test', role: 'member' };
    const made = await makeOrg(platform, ['owner', 'admin', 'member', 'viewer']);
    const path = `/api/v1/organizations/${made.org.slug}/invitations`;
    expect((await http.post(path, { token: made.members.member!.token, body })).status).toBe(403);
    expect((await http.post(path, { token: made.members.viewer!.token, body })).status).toBe(403);
    const ownerInvite = await http.post(path, {
      token: made.members.admin!.token,
      body: { email: 'boss@example.test', role: 'owner' },
    });
    expect(ownerInvite.status).toBe(403);
    expect(ownerInvite.body).toEqual({ error: 'only an owner can invite an owner' });
    expect(
      (await http.post(path, { token: made.members.owner!.token, body: { email: 'boss@example.test', role: 'owner' } }))
        .status,
    ).toBe(201);
  });

  it('refuses to invite an existing member and rejects extra fields', async () => {
    const existing = await http.post(invitationsPath(), {
      token: admin.token,
      body: { email: owner.user.email, role: 'member' },
    });
    expect(existing.status).toBe(409);
    const extra = await http.post(invitationsPath(), {
      token: admin.token,
      body: { email: 'extra@example.test', role: 'member', organizationId: 'x' },
    });
    expect(extra.status).toBe(400);
  });
});

describe('lookup and accept', () => {
  it('looks up publicly, refuses another email with 403, and lets the invited user join', async () => {
    const email = 'joiner@example.test';
    const { invitation, token } = await invite(email, 'admin', owner.token);

    const lookup = await http.get(`/api/v1/invitations/${token}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({
      organization: { slug: org.slug, name: org.name },
      email,
      role: 'admin',
      status: 'pending',
      expiresAt: invitation.expiresAt,
    });

    const stranger = await makeUser(platform);
    const strangerToken = await tokenFor(platform, stranger.user, null, null);
    const mismatch = await http.post(`/api/v1/invitations/${token}/accept`, { token: strangerToken });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body).toEqual({ error: 'invitation email mismatch' });

    const invited = await makeUser(platform, email);
    const invitedToken = await tokenFor(platform, invited.user, null, null);
    const accepted = await http.post(`/api/v1/invitations/${token}/accept`, { token: invitedToken });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      organization: { id: org.id, slug: org.slug, name: org.name },
      userId: invited.user.id,
      role: 'admin',
    });
    const membership = await platform.services
      .db('memberships')
      .where({ organization_id: org.id, user_id: invited.user.id })
      .first('role');
    expect(membership.role).toBe('admin');

    const handle = platform.services.temporal.workflow.getHandle(invitation.workflowId);
    expect(await handle.result()).toMatchObject({ status: 'accepted' });
    expect((await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.resourceStatus)).toBe('accepted');

    const used = await http.get(`/api/v1/invitations/${token}`);
    expect(used.status).toBe(410);
    expect(used.body).toEqual({ error: 'invitation has already been accepted' });
    const again = await http.post(`/api/v1/invitations/${token}/accept`, { token: invitedToken });
    expect(again.status).toBe(410);
    expect(await auditActions(invitation.id)).toEqual(['invitation.create', 'invitation.accept']);
    expect(await auditActions(invited.user.id)).toContain('member.add');
  });

  it('answers a signed-in user an access token with the new organization active, usable at once', async () => {
    const email = 'newcomer@example.test';
    const { token } = await invite(email, 'member', owner.token);
    const invited = await makeUser(platform, email);
    const login = await http.post<{ accessToken: string; organization: unknown }>('/api/v1/auth/login', {
      body: { email, password: invited.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.organization).toBeNull();
    const before = await http.get(`/api/v1/organizations/${org.slug}/members`, { token: login.body.accessToken });
    expect(before.status).toBe(400);
    expect(before.body).toEqual({ error: 'missing organization context' });

    const accepted = await http.post<{ accessToken: string; tokenType: string; activeOrganization: unknown }>(
      `/api/v1/invitations/${token}/accept`,
      { token: login.body.accessToken },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      organization: { id: org.id, slug: org.slug },
      role: 'member',
      tokenType: 'Bearer',
      activeOrganization: { id: org.id, slug: org.slug, name: org.name, role: 'member' },
    });
    const after = await http.get(`/api/v1/organizations/${org.slug}/members`, { token: accepted.body.accessToken });
    expect(after.status).toBe(200);
  });

  it('requires a verified email to accept', async () => {
    const email = 'unverified@example.test';
    const { token } = await invite(email);
    const user = await makeUser(platform, email);
    await platform.services.db('users').where({ id: user.user.id }).update({ email_verified_at: null });
    const res = await http.post(`/api/v1/invitations/${token}/accept`, {
      token: await tokenFor(platform, user.user, null, null),
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'verify your email address before accepting an invitation' });
  });

  it('answers unknown and malformed tokens with 404, and accept without a session with 401', async () => {
    expect((await http.get('/api/v1/invitations/not-a-token')).status).toBe(404);
    expect((await http.get(`/api/v1/invitations/${'A'.repeat(43)}`)).body).toEqual({ error: 'invitation not found' });
    expect((await http.post(`/api/v1/invitations/${'A'.repeat(43)}/accept`)).status).toBe(401);
  });
});

describe('reissue and revoke', () => {
  it('reissue issues a new token, kills the old one and moves the expiry', async () => {
    const email = 'reissued@example.test';
    const { invitation, token: oldToken } = await invite(email);
    let res: HttpResponse<InvitationBody> | undefined;
    const newToken = await mailedToken(smtp, email, async () => {
      res = await http.post<InvitationBody>(`${invitationsPath()}/${invitation.id}/reissue`, { token: admin.token });
    });
    expect(res?.status).toBe(200);
    // The reissue answers once its workflow has mailed the new token.
    expect(res?.body).toMatchObject({ id: invitation.id, status: 'pending', mail: { status: 'sent' } });
    expect(Date.parse(res!.body.expiresAt)).toBeGreaterThan(Date.parse(invitation.expiresAt));
    expect(newToken).not.toBe(oldToken);

    expect((await http.get(`/api/v1/invitations/${oldToken}`)).status).toBe(404);
    const user = await makeUser(platform, email);
    const userToken = await tokenFor(platform, user.user, null, null);
    expect((await http.post(`/api/v1/invitations/${oldToken}/accept`, { token: userToken })).status).toBe(404);
    expect((await http.get(`/api/v1/invitations/${newToken}`)).status).toBe(200);

    const state = await platform.services.temporal.workflow
      .getHandle(invitation.workflowId)
      .query(invitationStateQuery);
    expect(state).toEqual({ status: 'pending', expiresAt: res!.body.expiresAt, reissues: 1 });
    expect(await auditActions(invitation.id)).toEqual(['invitation.create', 'invitation.reissue']);

    expect((await http.post(`/api/v1/invitations/${newToken}/accept`, { token: userToken })).status).toBe(200);
  });

  it('revoke cancels the invitation and ends its workflow', async () => {
    const { invitation, token } = await invite('revoked@example.test');
    const res = await http.delete<InvitationBody>(`${invitationsPath()}/${invitation.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: invitation.id, status: 'revoked' });
    const handle = platform.services.temporal.workflow.getHandle(invitation.workflowId);
    expect(await handle.result()).toMatchObject({ status: 'revoked' });
    expect((await http.get(`/api/v1/invitations/${token}`)).body).toEqual({ error: 'invitation has been revoked' });
    const user = await makeUser(platform, 'revoked@example.test');
    const accept = await http.post(`/api/v1/invitations/${token}/accept`, {
      token: await tokenFor(platform, user.user, null, null),
    });
    expect(accept.status).toBe(410);
    const twice = await http.delete(`${invitationsPath()}/${invitation.id}`, { token: admin.token });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ error: 'invitation is revoked' });
    const reissue = await http.post(`${invitationsPath()}/${invitation.id}/reissue`, { token: admin.token });
    expect(reissue.status).toBe(409);
    expect(await auditActions(invitation.id)).toEqual(['invitation.create', 'invitation.revoke']);
  });

  it('lists invitations by status with cursor pagination', async () => {
    const page1 = await http.get<{ items: InvitationBody[]; nextCursor: string | null }>(
      `${invitationsPath()}?limit=2`,
      { token: admin.token },
    );
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await http.get<{ items: InvitationBody[] }>(
      `${invitationsPath()}?limit=2&cursor=${page1.body.nextCursor ?? ''}`,
      { token: admin.token },
    );
    const ids = [...page1.body.items, ...page2.body.items].map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    const revoked = await http.get<{ items: InvitationBody[] }>(`${invitationsPath()}?status=revoked`, {
      token: admin.token,
    });
    expect(revoked.body.items.map((i) => i.status)).toEqual(['revoked']);
    expect((await http.get(`${invitationsPath()}?limit=100000`, { token: admin.token })).status).toBe(400);
  });
});
