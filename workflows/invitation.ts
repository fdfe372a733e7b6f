import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { SEARCH_ATTRIBUTES } from '../src/temporal/definitions';
import {
  INVITATION_FAILURE,
  acceptInvitationUpdate,
  invitationStateQuery,
  reissueInvitationUpdate,
  revokeInvitationUpdate,
  type InvitationState,
  type InvitationStatus,
  type InvitationWorkflowInput,
} from '../src/invitations/invitation-workflow-contract';

const { expireInvitation, reissueInvitation, revokeInvitation, acceptInvitation } = proxyActivities<
  ReturnType<typeof createActivities>
>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/** Activity failures reach the API caller as the ApplicationFailure the activity raised (its type is the reason). */
async function unwrap<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) throw err.cause;
    throw err;
  }
}

/**
 * One invitation from send to its end: a durable timer expires it unless a reissue moves the deadline (resettable
 * timer) or an accept or revoke ends it first. Human actions are Updates: validators reject at once (nothing is
 * written to history), handlers run one at a time and change the row through activities (row + audit entry in one
 * transaction). The row in PostgreSQL is what lists read; this workflow owns the transitions and the timer.
 */
export async function invitationWorkflow(input: InvitationWorkflowInput): Promise<InvitationState> {
  const { workflowId } = workflowInfo();
  let status: InvitationStatus = 'pending';
  let expiresAtMs = Date.parse(input.expiresAt);
  let tokenHash = input.tokenHash;
  let reissues = 0;
  // True while a handler or the expiry changes the row: transitions never interleave.
  let busy = false;
  let deadlineMoved = false;

  const state = (): InvitationState => ({ status, expiresAt: new Date(expiresAtMs).toISOString(), reissues });
  const setStatus = (next: InvitationStatus) => {
    status = next;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.resourceStatus, value: next }]);
  };

  /** Synchronous validator part shared by every update: only a pending, unexpired invitation can change. */
  const requirePending = () => {
    if (status !== 'pending')
      throw ApplicationFailure.nonRetryable(`invitation is ${status}`, INVITATION_FAILURE.notPending);
    if (Date.now() >= expiresAtMs) {
      throw ApplicationFailure.nonRetryable('invitation is expired', INVITATION_FAILURE.notPending);
    }
  };

  /**
   * Waits until no transition runs, then claims the turn. When the running transition ends, every waiter's condition
   * turns true in the same activation: the check and the claim sit in one synchronous step, so only the first waiter
   * to resume gets the turn and the others wait again (an `await` between them would let all of them through).
   */
  async function acquire(): Promise<void> {
    while (busy) await condition(() => !busy);
    busy = true;
  }

  /** Waits for the previous transition, re-checks (it may have ended the invitation), then runs this one alone. */
  async function exclusively<T>(work: () => Promise<T>): Promise<T> {
    await acquire();
    try {
      requirePending();
      return await work();
    } finally {
      busy = false;
    }
  }

  setHandler(invitationStateQuery, state);

  setHandler(
    reissueInvitationUpdate,
    (req) =>
      exclusively(async () => {
        const expiresAt = new Date(Date.now() + input.ttlMs).toISOString();
        await unwrap(
          reissueInvitation({
            invitationId: input.invitationId,
            workflowId,
            tokenHash: req.tokenHash,
            expiresAt,
            actor: req.actor,
          }),
        );
        tokenHash = req.tokenHash;
        expiresAtMs = Date.parse(expiresAt);
        reissues += 1;
        deadlineMoved = true;
        return { expiresAt };
      }),
    { validator: (_req) => requirePending() },
  );

  setHandler(
    revokeInvitationUpdate,
    (req) =>
      exclusively(async () => {
        await unwrap(revokeInvitation({ invitationId: input.invitationId, workflowId, actor: req.actor }));
        setStatus('revoked');
        return { status };
      }),
    { validator: (_req) => requirePending() },
  );

  setHandler(
    acceptInvitationUpdate,
    (req) =>
      exclusively(async () => {
        if (req.tokenHash !== tokenHash) {
          throw ApplicationFailure.nonRetryable('invitation token was replaced', INVITATION_FAILURE.tokenSuperseded);
        }
        const result = await unwrap(acceptInvitation({ invitationId: input.invitationId, workflowId, ...req }));
        setStatus('accepted');
        return result;
      }),
    {
      validator: (req) => {
        requirePending();
        if (req.tokenHash !== tokenHash) {
          throw ApplicationFailure.nonRetryable('invitation token was replaced', INVITATION_FAILURE.tokenSuperseded);
        }
        if (req.email.toLowerCase() !== input.email.toLowerCase()) {
          throw ApplicationFailure.nonRetryable('invitation email mismatch', INVITATION_FAILURE.emailMismatch);
        }
      },
    },
  );

  while (status === 'pending') {
    const remaining = expiresAtMs - Date.now();
    if (remaining > 0) {
      deadlineMoved = false;
      // Resettable timer: a reissue sets deadlineMoved and the loop waits again from the new deadline.
      if (await condition(() => deadlineMoved || status !== 'pending', remaining)) continue;
    }
    await acquire();
    try {
      if (status !== 'pending' || Date.now() < expiresAtMs) continue;
      setStatus(await expireInvitation({ invitationId: input.invitationId, workflowId }));
    } finally {
      busy = false;
    }
  }
  await condition(allHandlersFinished);
  return state();
}
