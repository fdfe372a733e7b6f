import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { Turns } from './lib/turns';
import { SEARCH_ATTRIBUTES } from '../src/temporal/definitions';
import {
  BREAK_GLASS_FAILURE,
  breakGlassOpenedUpdate,
  breakGlassStateQuery,
  closeBreakGlassUpdate,
  type BreakGlassOpened,
  type BreakGlassStatus,
  type BreakGlassWorkflowInput,
} from '../src/break-glass/break-glass-workflow-contract';
import type { AuditActor } from '../src/audit/types';

const { openBreakGlass, closeBreakGlass } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

const TIMER: AuditActor = { userId: null, actorType: 'system', actor: 'break-glass-workflow', requestId: null };

/**
 * One break-glass session from opening to its end. The first activity writes the session row, its audit entry and
 * the `break_glass.opened` event (one transaction); a durable timer of the session's duration closes it, unless a
 * close Update (from the API) does first. The end instant is fixed at opening: nothing moves it, so a session
 * cannot outlive its duration (the gate also compares `ends_at` with the clock).
 */
export async function breakGlassWorkflow(input: BreakGlassWorkflowInput): Promise<{ status: BreakGlassStatus }> {
  const { workflowId } = workflowInfo();
  let status: BreakGlassStatus = 'opening';
  let opened: BreakGlassOpened | null = null;
  const turns = new Turns();
  const setStatus = (next: BreakGlassStatus) => {
    status = next;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.resourceStatus, value: next }]);
  };
  const requireNotClosed = () => {
    if (status === 'closed')
      throw ApplicationFailure.nonRetryable('break-glass session is closed', BREAK_GLASS_FAILURE.closed);
  };
  const close = (actor: AuditActor, reason: 'closed' | 'expired') =>
    turns.exclusively(async () => {
      const closedAt = await closeBreakGlass({ sessionId: input.sessionId, workflowId, actor, reason });
      setStatus('closed');
      return { status, closedAt };
    }, requireNotClosed);

  setHandler(breakGlassStateQuery, () => ({ status, endsAt: opened?.endsAt ?? null }));
  setHandler(breakGlassOpenedUpdate, async () => {
    await condition(() => opened !== null);
    return opened!;
  });
  setHandler(
    closeBreakGlassUpdate,
    async (req) => {
      await condition(() => opened !== null);
      return close(req.actor, 'closed');
    },
    { validator: (_req) => requireNotClosed() },
  );

  const openedAt = Date.now();
  const endsAt = new Date(openedAt + input.durationMs).toISOString();
  opened = await openBreakGlass({ ...input, workflowId, openedAt: new Date(openedAt).toISOString(), endsAt });
  setStatus('open');

  if (!(await condition(() => status === 'closed', Math.max(0, Date.parse(opened.endsAt) - Date.now())))) {
    await close(TIMER, 'expired').catch((err: unknown) => {
      // A close by hand that won the race already ended the session.
      if (status !== 'closed') throw err;
    });
  }
  await condition(allHandlersFinished);
  return { status };
}
