import { randomBytes, randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { installTemporalRuntime } from '../../../src/temporal/runtime';
import {
  reissueInvitationUpdate,
  revokeInvitationUpdate,
  type InvitationStatus,
} from '../../../src/invitations/invitation-workflow-contract';
import type { AuditActor } from '../../../src/audit/types';
import { harnessState } from '../../helpers/harness-state';
import { eventually } from '../../helpers/net';

/**
 * The invitation workflow runs one transition at a time. Updates that arrive while another transition's activity is
 * running wait their turn; when it ends, exactly one of them may go next and the others re-check the state it left.
 * Activities are stubs here (real workflow bundle, real Temporal dev server) so the test controls when they finish.
 */
const actor: AuditActor = { userId: null, actorType: 'user', actor: 'admin@example.test', requestId: null };

let connection: NativeConnection;
let clientConnection: Connection;
let client: Client;
let worker: Worker;
let running: Promise<void>;
const taskQueue = `wf-${randomBytes(4).toString('hex')}`;

const calls: string[] = [];
let inFlight = 0;
let maxInFlight = 0;
let releaseReissue: () => void = () => undefined;
let reissueStarted = false;

async function tracked<T>(name: string, work: () => Promise<T>): Promise<T> {
  calls.push(name);
  inFlight += 1;
  maxInFlight = Math.max(maxInFlight, inFlight);
  try {
    return await work();
  } finally {
    inFlight -= 1;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  installTemporalRuntime();
  const address = harnessState().temporalAddress;
  connection = await NativeConnection.connect({ address });
  worker = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue,
    workflowBundle: { codePath: harnessState().bundlePath },
    activities: {
      mailInvitation: async () => 'sent',
      reissueInvitation: () =>
        tracked('reissue', async () => {
          reissueStarted = true;
          await new Promise<void>((resolve) => {
            releaseReissue = resolve;
          });
        }),
      revokeInvitation: () => tracked('revoke', () => pause(300)),
      acceptInvitation: () => tracked('accept', () => pause(300)),
      expireInvitation: () => tracked('expire', async (): Promise<InvitationStatus> => 'expired'),
    },
  });
  running = worker.run();
  clientConnection = await Connection.connect({ address });
  client = new Client({ connection: clientConnection, namespace: 'default' });
});
afterAll(async () => {
  releaseReissue();
  worker.shutdown();
  await running;
  await clientConnection.close();
  await connection.close();
});

describe('invitation workflow transitions', () => {
  it('runs updates queued behind a transition one at a time: a second revoke sees the first and is refused', async () => {
    const invitationId = randomUUID();
    const handle = await client.workflow.start('invitationWorkflow', {
      taskQueue,
      workflowId: `invitation-${invitationId}`,
      args: [
        {
          invitationId,
          organizationId: randomUUID(),
          email: 'queued@example.test',
          tokenHash: 'a'.repeat(64),
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          ttlMs: 3_600_000,
        },
      ],
    });
    const reissue = handle.executeUpdate(reissueInvitationUpdate, {
      args: [{ tokenHash: 'b'.repeat(64), sealedToken: 'sealed', actor }],
    });
    await eventually(async () => reissueStarted || null, 15_000, 'reissue activity started');
    // Both are accepted (validators pass: still pending) and wait behind the running reissue.
    const first = await handle.startUpdate(revokeInvitationUpdate, {
      args: [{ actor }],
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    const second = await handle.startUpdate(revokeInvitationUpdate, {
      args: [{ actor }],
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    releaseReissue();
    await expect(reissue).resolves.toMatchObject({ expiresAt: expect.any(String) });
    const outcomes = await Promise.allSettled([first.result(), second.result()]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((refused.reason as WorkflowUpdateFailedError).cause).toMatchObject({
      type: 'InvitationNotPending',
      message: 'invitation is revoked',
    });
    expect(calls).toEqual(['reissue', 'revoke']);
    expect(maxInFlight).toBe(1);
    expect(await handle.result()).toMatchObject({ status: 'revoked', reissues: 1 });
  });
});
