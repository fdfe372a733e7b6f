import { randomUUID } from 'node:crypto';
import { createInvitationActivities } from '../../../activities/invitation';
import { insertInvitation } from '../../../src/invitations/invitation-repository';
import { hashInvitationToken, newInvitationToken } from '../../../src/invitations/invitation-token';
import type { AuditActor } from '../../../src/audit/types';
import { makeOrg, makeUser } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * Activities run at least once: a retry after a lost completion must find its own committed change and answer the
 * same, without a second change or audit entry. Called directly here (real database, no workflow) to retry on purpose.
 */
let platform: TestPlatform;
let activities: ReturnType<typeof createInvitationActivities>;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
const actor: AuditActor = { userId: null, actorType: 'user', actor: 'admin@example.test', requestId: 'r-1' };

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  activities = createInvitationActivities(platform.services);
  ({ org } = await makeOrg(platform));
});
afterAll(() => platform.close());

async function pending(email: string, expiresInMs = 3_600_000) {
  const id = randomUUID();
  const tokenHash = hashInvitationToken(newInvitationToken());
  await insertInvitation(platform.services.db, {
    id,
    organizationId: org.id,
    email,
    role: 'member',
    tokenHash,
    expiresAt: new Date(Date.now() + expiresInMs),
    invitedBy: null,
    workflowId: `invitation-${id}`,
  });
  return { id, tokenHash, target: { invitationId: id, workflowId: `invitation-${id}` } };
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
