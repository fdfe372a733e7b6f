import fs from 'node:fs';
import { Worker } from '@temporalio/worker';
import { SEARCH_ATTRIBUTES } from '../../../src/temporal/definitions';
import { invitationStateQuery } from '../../../src/invitations/invitation-workflow-contract';
import { harnessState } from '../../helpers/harness-state';
import { makeOrg, makeUser, tokenFor, type Member } from '../../helpers/fixtures';
import { httpClient, type HttpResponse } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import type { TestPlatform } from '../../helpers/test-platform';
import type { SmtpCapture } from '../../helpers/smtp-capture';
import { startMailPlatform, type MailPlatform } from '../../helpers/mail-platform';
import { mailedToken } from './invitation-mail';

/** Short enough to watch expire, long enough for the HTTP round trips before it. */
const TTL_MS = 4000;

interface InvitationBody {
  id: string;
  status: string;
  expiresAt: string;
  workflowId: string;
}

let env: MailPlatform;
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let smtp: SmtpCapture;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let admin: Member;

beforeAll(async () => {
  env = await startMailPlatform({ env: { INVITATION_TTL: `${TTL_MS}ms` } });
  ({ platform, smtp, http, org } = env);
  admin = env.members.admin!;
});
afterAll(() => env.close());

async function invite(email: string) {
  let invitation: InvitationBody | undefined;
  const token = await mailedToken(smtp, email, async () => {
    const res = await http.post<InvitationBody>(`/api/v1/organizations/${org.slug}/invitations`, {
      token: admin.token,
      body: { email, role: 'member' },
    });
    expect(res.status).toBe(201);
    invitation = res.body;
  });
  return { invitation: invitation!, token };
}

/** Timer tests wait for wall-clock deadlines; this polls the clock instead of sleeping a guessed amount. */
const reach = (instantMs: number) => eventually(async () => Date.now() >= instantMs, TTL_MS * 3, 'deadline');

async function expiryEntry(invitationId: string) {
  return eventually(
    async () =>
      (await platform.services
        .db('audit_log')
        .where({ resource_id: invitationId, action: 'invitation.expire' })
        .first()) as { created_at: Date; actor: string; actor_type: string } | undefined,
    TTL_MS * 4,
    'invitation.expire audit entry',
  );
}

describe('invitation expiry (durable timer)', () => {
  it('expires an invitation left alone; it can no longer be looked up or accepted', async () => {
    const email = 'idle@example.test';
    const { invitation, token } = await invite(email);
    expect(Date.parse(invitation.expiresAt) - Date.now()).toBeLessThanOrEqual(TTL_MS);

    const handle = platform.services.temporal.workflow.getHandle(invitation.workflowId);
    expect(await handle.result()).toMatchObject({ status: 'expired', reissues: 0 });
    const entry = await expiryEntry(invitation.id);
    expect(entry).toMatchObject({ actor_type: 'system', actor: 'invitation-workflow' });
    expect(entry.created_at.getTime()).toBeGreaterThanOrEqual(Date.parse(invitation.expiresAt));
    expect((await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.resourceStatus)).toBe('expired');

    const row = await platform.services.db('invitations').where({ id: invitation.id }).first('status');
    expect(row.status).toBe('expired');
    const lookup = await http.get(`/api/v1/invitations/${token}`);
    expect(lookup.status).toBe(410);
    expect(lookup.body).toEqual({ error: 'invitation has expired' });
    const user = await makeUser(platform, email);
    const accept = await http.post(`/api/v1/invitations/${token}/accept`, {
      token: await tokenFor(platform, user.user, null, null),
    });
    expect(accept.status).toBe(410);
    expect(accept.body).toEqual({ error: 'invitation has expired' });
    const reissue = await http.post(`/api/v1/organizations/${org.slug}/invitations/${invitation.id}/reissue`, {
      token: admin.token,
    });
    expect(reissue.status).toBe(409);
    expect(reissue.body).toEqual({ error: 'invitation is expired' });
    const membership = await platform.services.db('memberships').where({ user_id: user.user.id }).first();
    expect(membership).toBeUndefined();

    // The address can be invited again once the old invitation has ended.
    expect((await invite(email)).invitation.id).not.toBe(invitation.id);
  });

  it('reissue resets the timer: past the first deadline the invitation is still pending, then expires later', async () => {
    const email = 'reset@example.test';
    const { invitation } = await invite(email);
    const firstDeadline = Date.parse(invitation.expiresAt);
    await reach(firstDeadline - TTL_MS / 2);
    let reissued: HttpResponse<InvitationBody> | undefined;
    const newToken = await mailedToken(smtp, email, async () => {
      reissued = await http.post<InvitationBody>(
        `/api/v1/organizations/${org.slug}/invitations/${invitation.id}/reissue`,
        { token: admin.token },
      );
    });
    expect(reissued?.status).toBe(200);
    const secondExpiry = reissued!.body.expiresAt;
    const secondDeadline = Date.parse(secondExpiry);
    expect(secondDeadline - firstDeadline).toBeGreaterThanOrEqual(TTL_MS / 2 - 100);

    await reach(firstDeadline + 300);
    const handle = platform.services.temporal.workflow.getHandle(invitation.workflowId);
    expect(await handle.query(invitationStateQuery)).toEqual({
      status: 'pending',
      expiresAt: secondExpiry,
      reissues: 1,
    });
    expect((await http.get(`/api/v1/invitations/${newToken}`)).status).toBe(200);

    expect(await handle.result()).toMatchObject({ status: 'expired', reissues: 1 });
    const entry = await expiryEntry(invitation.id);
    expect(entry.created_at.getTime()).toBeGreaterThanOrEqual(secondDeadline);
    expect((await http.get(`/api/v1/invitations/${newToken}`)).status).toBe(410);

    // The history (timer, reset by an Update, activities, expiry) replays against the current workflow code.
    const history = await handle.fetchHistory();
    const code = fs.readFileSync(harnessState().bundlePath, 'utf8');
    await expect(
      Worker.runReplayHistory({ workflowBundle: { code } }, history, invitation.workflowId),
    ).resolves.toBeUndefined();
  });

  it('lists an overdue pending row as expired even before its timer has run', async () => {
    const { invitation } = await invite('overdue@example.test');
    // Simulates a timer that has not fired yet (worker down): readers still see the deadline.
    await platform.stopWorker();
    try {
      await reach(Date.parse(invitation.expiresAt) + 50);
      const res = await http.get<{ items: InvitationBody[] }>(
        `/api/v1/organizations/${org.slug}/invitations?status=expired`,
        { token: admin.token },
      );
      expect(res.body.items.map((i) => i.id)).toContain(invitation.id);
      const row = await platform.services.db('invitations').where({ id: invitation.id }).first('status');
      expect(row.status).toBe('pending');
    } finally {
      await platform.startWorker();
    }
    const handle = platform.services.temporal.workflow.getHandle(invitation.workflowId);
    expect(await handle.result()).toMatchObject({ status: 'expired' });
  });
});
