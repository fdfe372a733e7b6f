import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { createActivities } from '../../activities';
import type { AuditActor } from '../../src/audit/types';
import {
  invitationStateQuery,
  reissueInvitationUpdate,
  revokeInvitationUpdate,
  type InvitationStatus,
  type InvitationWorkflowInput,
} from '../../src/invitations/invitation-workflow-contract';
import { invitationWorkflow } from '../../workflows/invitation';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { historiesOf } from '../helpers/workflow-histories';

const { keep } = historiesOf('invitation');

/**
 * The invitation's durable timer on the time-skipping server: a seven-day expiry takes milliseconds. Activities are
 * stubs typed from the real ones, recording the workflow-clock instant at which the workflow called them.
 */
type InvitationActivities = Pick<
  ReturnType<typeof createActivities>,
  'expireInvitation' | 'reissueInvitation' | 'revokeInvitation' | 'acceptInvitation' | 'mailInvitation'
>;

const DAY_MS = 24 * 3_600_000;
const TTL_MS = 7 * DAY_MS;
const actor: AuditActor = { userId: null, actorType: 'user', actor: 'admin@example.test', requestId: null };

let calls: { name: string; atMs: number }[];

function stubs(): InvitationActivities {
  // The server's (skipped) clock at which the workflow scheduled the activity.
  const record = async (name: string) => calls.push({ name, atMs: Context.current().info.scheduledTimestampMs });
  return {
    mailInvitation: async () => {
      await record('mail');
      return 'sent';
    },
    expireInvitation: async (): Promise<InvitationStatus> => {
      await record('expire');
      return 'expired';
    },
    reissueInvitation: async () => {
      await record('reissue');
    },
    revokeInvitation: async () => {
      await record('revoke');
    },
    acceptInvitation: async (input) => {
      await record('accept');
      return { organizationId: 'org', userId: input.userId, role: 'member' };
    },
  };
}

function input(startMs: number): InvitationWorkflowInput {
  return {
    invitationId: randomUUID(),
    organizationId: randomUUID(),
    email: 'invitee@example.test',
    tokenHash: 'a'.repeat(64),
    expiresAt: new Date(startMs + TTL_MS).toISOString(),
    ttlMs: TTL_MS,
  };
}

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs());
beforeEach(() => {
  calls = [];
});

describe('invitation expiry on the time-skipping server', () => {
  it('expires an idle invitation at its seven-day deadline, in well under two seconds of real time', async () => {
    const started = Date.now();
    const args = input(await ts.env.currentTimeMs());
    const handle = await ts.env.client.workflow.start(invitationWorkflow, {
      taskQueue: ts.taskQueue,
      workflowId: `invitation-${args.invitationId}`,
      args: [args],
    });
    const state = await handle.result();
    expect(state).toEqual({ status: 'expired', expiresAt: args.expiresAt, reissues: 0 });
    expect(calls.map((c) => c.name)).toEqual(['mail', 'expire']);
    expect(calls[1]!.atMs).toBeGreaterThanOrEqual(Date.parse(args.expiresAt));
    expect(Date.now() - started).toBeLessThan(2000);
    await keep('expired', handle);
  });

  it('a reissue moves the deadline: the timer follows it instead of firing at the first one', async () => {
    const args = input(await ts.env.currentTimeMs());
    const handle = await ts.env.client.workflow.start(invitationWorkflow, {
      taskQueue: ts.taskQueue,
      workflowId: `invitation-${args.invitationId}`,
      args: [args],
    });
    await ts.env.sleep(5 * DAY_MS);
    const reissued = await handle.executeUpdate(reissueInvitationUpdate, {
      args: [{ tokenHash: 'b'.repeat(64), sealedToken: 'sealed', actor }],
    });
    expect(reissued.mail).toBe('sent');
    expect((await handle.query(invitationStateQuery)).status).toBe('pending');
    const state = await handle.result();
    expect(Date.parse(reissued.expiresAt)).toBeGreaterThan(Date.parse(args.expiresAt));
    expect(state).toEqual({ status: 'expired', expiresAt: reissued.expiresAt, reissues: 1 });
    // The first mail at the start, the reissue's own mail before it answers, then the expiry at the new deadline.
    expect(calls.map((c) => c.name)).toEqual(['mail', 'reissue', 'mail', 'expire']);
    expect(calls[3]!.atMs).toBeGreaterThanOrEqual(Date.parse(reissued.expiresAt));
    await keep('reissued-then-expired', handle);
  });

  it('a revoke before the deadline ends the invitation without an expiry', async () => {
    const args = input(await ts.env.currentTimeMs());
    const handle = await ts.env.client.workflow.start(invitationWorkflow, {
      taskQueue: ts.taskQueue,
      workflowId: `invitation-${args.invitationId}`,
      args: [args],
    });
    await ts.env.sleep(DAY_MS);
    await handle.executeUpdate(revokeInvitationUpdate, { args: [{ actor }] });
    const state = await handle.result();
    expect(state.status).toBe('revoked');
    expect(calls.map((c) => c.name)).toEqual(['mail', 'revoke']);
    await keep('revoked', handle);
  });
});
