import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { unwrapActivityFailure } from './lib/activity-failure';
import { ResettableDeadline } from './lib/resettable-deadline';
import { Turns } from './lib/turns';
import { SEARCH_ATTRIBUTES } from '../src/temporal/definitions';
import {
  INVITATION_FAILURE,
  INVITATION_MAIL_ATTEMPTS,
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

// The activity itself turns its last attempt's failure into the `failed` outcome (recorded on the row).
const { mailInvitation } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: INVITATION_MAIL_ATTEMPTS },
});

/**
 * One invitation from send to its end: a durable timer expires it unless a reissue moves the deadline (resettable
 * timer) or an accept or revoke ends it first. Human actions are Updates: validators reject at once (nothing is
 * written to history), handlers run one at a time and change the row through activities (row + audit entry in one
 * transaction). The row in PostgreSQL is what lists read; this workflow owns the transitions, the timer and the
 * invitation mails (first send and each reissue, through an idempotent activity).
 */
export async function invitationWorkflow(input: InvitationWorkflowInput): Promise<InvitationState> {
  const { workflowId } = workflowInfo();
  let status: InvitationStatus = 'pending';
  const deadline = new ResettableDeadline(Date.parse(input.expiresAt));
  let tokenHash = input.tokenHash;
  let reissues = 0;
  // Transitions (Update handlers and the expiry) never interleave.
  const turns = new Turns();

  const state = (): InvitationState => ({ status, expiresAt: new Date(deadline.at).toISOString(), reissues });
  const setStatus = (next: InvitationStatus) => {
    status = next;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.resourceStatus, value: next }]);
  };

  /** Synchronous validator part shared by every update: only a pending, unexpired invitation can change. */
  const requirePending = () => {
    if (status !== 'pending')
      throw ApplicationFailure.nonRetryable(`invitation is ${status}`, INVITATION_FAILURE.notPending);
    if (Date.now() >= deadline.at) {
      throw ApplicationFailure.nonRetryable('invitation is expired', INVITATION_FAILURE.notPending);
    }
  };

  /** Waits for the previous transition, re-checks (it may have ended the invitation), then runs this one alone. */
  const exclusively = <T>(work: () => Promise<T>) => turns.exclusively(work, requirePending);

  setHandler(invitationStateQuery, state);

  setHandler(
    reissueInvitationUpdate,
    (req) =>
      exclusively(async () => {
        const expiresAt = new Date(Date.now() + input.ttlMs).toISOString();
        await unwrapActivityFailure(
          reissueInvitation({
            invitationId: input.invitationId,
            workflowId,
            tokenHash: req.tokenHash,
            sealedToken: req.sealedToken,
            expiresAt,
            actor: req.actor,
          }),
        );
        tokenHash = req.tokenHash;
        deadline.moveTo(Date.parse(expiresAt));
        reissues += 1;
        return { expiresAt, mail: await mailInvitation({ invitationId: input.invitationId, workflowId }) };
      }),
    { validator: (_req) => requirePending() },
  );

  setHandler(
    revokeInvitationUpdate,
    (req) =>
      exclusively(async () => {
        await unwrapActivityFailure(revokeInvitation({ invitationId: input.invitationId, workflowId, ...req }));
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
        const result = await unwrapActivityFailure(
          acceptInvitation({ invitationId: input.invitationId, workflowId, ...req }),
        );
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

  // The first mail is this workflow's own step, so a send that crashed after its commit still mails once.
  await turns.exclusively(async () => {
    if (status === 'pending') await mailInvitation({ invitationId: input.invitationId, workflowId });
  });

  while (status === 'pending') {
    setCurrentDetails(`waiting for acceptance until ${new Date(deadline.at).toISOString()}`);
    // Resettable timer: a reissue moves the deadline and the wait starts again from the new instant.
    if (!(await deadline.wait(() => status !== 'pending'))) continue;
    await turns.exclusively(async () => {
      if (status !== 'pending' || Date.now() < deadline.at) return;
      setStatus(await expireInvitation({ invitationId: input.invitationId, workflowId }));
    });
  }
  await condition(allHandlersFinished);
  return state();
}
