import { randomUUID } from 'node:crypto';
import { createInvitationActivities } from '../../../activities/invitation';
import { insertInvitation } from '../../../src/invitations/invitation-repository';
import { MockActivityEnvironment } from '@temporalio/testing';
import {
  hashInvitationToken,
  newInvitationToken,
  sealInvitationToken,
} from '../../../src/invitations/invitation-token';
import { INVITATION_MAIL_ATTEMPTS } from '../../../src/invitations/invitation-workflow-contract';
import type { AuditActor } from '../../../src/audit/types';
import { makeOrg, makeUser } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { startSmtpCapture, type SmtpCapture } from '../../helpers/smtp-capture';
import { invitationTokenIn } from './invitation-mail';

/**
 * Activities run at least once: a retry after a lost completion must find its own committed change and answer the
 * same, without a second change or audit entry. Called directly here (real database, no workflow) to retry on purpose.
 */
let platform: TestPlatform;
let activities: ReturnType<typeof createInvitationActivities>;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
const actor: AuditActor = { userId: null, actorType: 'user', actor: 'admin@example.test', requestId: 'r-1' };

let smtp: SmtpCapture;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  platform = await startTestPlatform({ worker: false, env: { SMTP_URL: smtp.url } });
  activities = createInvitationActivities(platform.services);
  ({ org } = await makeOrg(platform));
});
afterAll(async () => {
  await platform.close();
  await smtp.close();
});

async function pending(email: string, expiresInMs = 3_600_000) {
  const id = randomUUID();
  const token = newInvitationToken();
  const tokenHash = hashInvitationToken(token);
  await insertInvitation(platform.services.db, {
    id,
    organizationId: org.id,
    email,
    role: 'member',
    tokenHash,
    expiresAt: new Date(Date.now() + expiresInMs),
    invitedBy: null,
    workflowId: `invitation-${id}`,
    sealedToken: sealInvitationToken(platform.services.secrets, token, id),
  });
  return { id, token, tokenHash, target: { invitationId: id, workflowId: `invitation-${id}` } };
}

const entries = (id: string) =>
  platform.services.db('audit_log').where({ resource_id: id }).orderBy('seq').pluck('action') as Promise<string[]>;

describe('invitation activities are idempotent', () => {
  it('accept twice: one membership, audited once, the same answer', async () => {
    const email = 'twice@example.test';
    const { id, tokenHash, target } = await pending(email);
    const { user } = await makeUser(platform, email);
    const input = { ...target, tokenHash, userId: user.id, email, actor };
    const first = await activities.acceptInvitation(input);
    const second = await activities.acceptInvitation(input);
    expect(second).toEqual(first);
    expect(first).toEqual({ organizationId: org.id, userId: user.id, role: 'member' });
    expect(await entries(id)).toEqual(['invitation.accept']);
    expect(await platform.services.db('memberships').where({ user_id: user.id })).toHaveLength(1);
    const other = await makeUser(platform, 'someone@example.test');
    await expect(activities.acceptInvitation({ ...input, userId: other.user.id })).rejects.toMatchObject({
      type: 'InvitationNotPending',
      nonRetryable: true,
    });
  });

  it('reissue, revoke and expire twice change the row and audit once each', async () => {
    const { id, target } = await pending('repeat@example.test');
    const reissue = {
      ...target,
      tokenHash: hashInvitationToken(newInvitationToken()),
      sealedToken: 'v1.sealed.elsewhere.x',
      expiresAt: new Date().toISOString(),
      actor,
    };
    await activities.reissueInvitation(reissue);
    await activities.reissueInvitation(reissue);
    const row = await platform.services.db('invitations').where({ id }).first('reissue_count', 'token_hash');
    expect(row).toEqual({ reissue_count: 1, token_hash: reissue.tokenHash });
    await activities.revokeInvitation({ ...target, actor });
    await activities.revokeInvitation({ ...target, actor });
    expect(await activities.expireInvitation(target)).toBe('revoked');
    expect(await entries(id)).toEqual(['invitation.reissue', 'invitation.revoke']);

    const idle = await pending('idle@example.test');
    expect(await activities.expireInvitation(idle.target)).toBe('expired');
    expect(await activities.expireInvitation(idle.target)).toBe('expired');
    expect(await entries(idle.id)).toEqual(['invitation.expire']);
  });

  it('refuses a replaced token and another email inside the activity as well', async () => {
    const { tokenHash, target } = await pending('exact@example.test');
    const { user } = await makeUser(platform, 'exact@example.test');
    const base = { ...target, userId: user.id, actor };
    await expect(
      activities.acceptInvitation({ ...base, tokenHash: 'f'.repeat(64), email: 'exact@example.test' }),
    ).rejects.toMatchObject({ type: 'InvitationTokenSuperseded' });
    await expect(
      activities.acceptInvitation({ ...base, tokenHash, email: 'other@example.test' }),
    ).rejects.toMatchObject({
      type: 'InvitationEmailMismatch',
    });
    expect(await activities.expireInvitation({ invitationId: randomUUID(), workflowId: 'gone' })).toBe('revoked');
  });
});

describe('the invitation mail activity', () => {
  it('mails the sealed token once, however often it runs, and forgets the sealed copy', async () => {
    const email = 'mailed-once@example.test';
    const { id, token, target } = await pending(email);
    expect(await activities.mailInvitation(target)).toBe('sent');
    expect(await activities.mailInvitation(target)).toBe('skipped');
    const mails = smtp.to(email);
    expect(mails).toHaveLength(1);
    expect(invitationTokenIn(mails[0]!)).toBe(token);
    const row = await platform.services.db('invitations').where({ id }).first('sealed_token', 'mailed_token_hash');
    expect(row).toEqual({ sealed_token: null, mailed_token_hash: hashInvitationToken(token) });
  });

  it('retries a refused mail through Temporal, and records the failure on the last attempt', async () => {
    const email = 'refused@example.test';
    const { id, target } = await pending(email);
    smtp.refuseNext(INVITATION_MAIL_ATTEMPTS);
    const first = new MockActivityEnvironment({ attempt: 1 });
    await expect(first.run(activities.mailInvitation, target)).rejects.toThrow();
    const last = new MockActivityEnvironment({ attempt: INVITATION_MAIL_ATTEMPTS });
    expect(await last.run(activities.mailInvitation, target)).toBe('failed');
    const row = await platform.services.db('invitations').where({ id }).first('mail_error', 'sealed_token');
    expect(row.mail_error).toEqual(expect.any(String));
    // The sealed token stays: a reissue (new token) or a later run can still mail.
    expect(row.sealed_token).toEqual(expect.any(String));
    expect(smtp.to(email)).toHaveLength(0);
  });
});
