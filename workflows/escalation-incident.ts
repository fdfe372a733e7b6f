import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { unwrapActivityFailure } from './lib/activity-failure';
import { nextOpening, withinBusinessHours } from '../src/notifications/business-hours';
import {
  INCIDENT_FAILURE,
  INCIDENT_STEPS_KEPT,
  acknowledgeIncidentUpdate,
  incidentStateQuery,
  resolveIncidentUpdate,
  type EscalationTier,
  type IncidentActionRequest,
  type IncidentInput,
  type IncidentState,
  type IncidentStatus,
} from '../src/notifications/notification-workflow-contract';
import { SEARCH_ATTRIBUTES } from '../src/temporal/definitions';
import { Turns } from './lib/turns';
import { runIsLong } from './lib/wait-until-clear';

/** Patch id: a long escalation continues as new at the start of a cycle, keeping the latest steps. */
const BOUNDED_RUN = 'escalation-bounded-run';

const { notifyEscalationTier, recordIncidentTransition, resolveIncidentTargets } = proxyActivities<
  ReturnType<typeof createActivities>
>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * One escalation incident: notify tier 1, wait `timeoutMs` for an acknowledgement, then tier 2, ...; after the last
 * tier, repeat the cycle `repeatCount` times `repeatIntervalMs` apart. Outside business hours it waits for the next
 * opening, or notifies the after-hours tier instead. Acknowledge and resolve are Updates (validators reject a closed
 * incident at once); their handlers change the row through an activity (row + audit entry in one transaction).
 * After the escalation ran out the incident stays open until someone acknowledges or resolves it; the workflow ends
 * when it is resolved. An escalation that repeats for days continues as new at the start of a cycle once its history
 * is long, carrying the cycle, the status and the latest steps.
 */
export async function escalationIncidentWorkflow(input: IncidentInput): Promise<IncidentState> {
  const { policy } = input;
  let status: IncidentStatus = input.resume?.status ?? 'open';
  const steps: IncidentState['steps'] = [...(input.resume?.steps ?? [])];
  const bounded = patched(BOUNDED_RUN);
  const turns = new Turns();
  const state = (): IncidentState => ({ status, steps: [...steps] });
  const ended = () => status !== 'open';

  const transition = (next: 'acknowledged' | 'resolved') => async (req: IncidentActionRequest) =>
    turns.exclusively(async () => {
      if (status === 'resolved' || (next === 'acknowledged' && status !== 'open')) {
        throw ApplicationFailure.nonRetryable(`incident is ${status}`, INCIDENT_FAILURE.notOpen);
      }
      await unwrapActivityFailure(
        recordIncidentTransition({
          incidentId: input.incidentId,
          organizationId: input.organizationId,
          to: next,
          ...req,
        }),
      );
      if (next === 'resolved') await resolveIncidentTargets(input);
      status = next;
      upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.resourceStatus, value: next }]);
      return state();
    });

  setHandler(incidentStateQuery, state);
  setHandler(acknowledgeIncidentUpdate, transition('acknowledged'), {
    validator: (_req) => {
      if (status !== 'open') throw ApplicationFailure.nonRetryable(`incident is ${status}`, INCIDENT_FAILURE.notOpen);
    },
  });
  setHandler(resolveIncidentUpdate, transition('resolved'), {
    validator: (_req) => {
      if (status === 'resolved')
        throw ApplicationFailure.nonRetryable('incident is resolved', INCIDENT_FAILURE.resolved);
    },
  });

  /** The tier to notify now, after waiting for business hours when the policy says so (null: ended meanwhile). */
  async function tierNow(index: number): Promise<{ tier: EscalationTier; index: number } | null> {
    const hours = policy.businessHours;
    if (!hours || withinBusinessHours(hours, new Date())) return { tier: policy.tiers[index]!, index };
    if (hours.outside === 'after_hours_tier' && hours.afterHoursTier) return { tier: hours.afterHoursTier, index: -1 };
    const opening = nextOpening(hours, new Date());
    if (opening === null) return { tier: policy.tiers[index]!, index };
    await condition(ended, Math.max(opening.getTime() - Date.now(), 1));
    return ended() ? null : { tier: policy.tiers[index]!, index };
  }

  escalation: for (let cycle = input.resume?.cycle ?? 0; cycle <= policy.repeatCount; cycle++) {
    if (bounded && runIsLong()) {
      await condition(() => allHandlersFinished() && turns.idle);
      return continueAsNew<typeof escalationIncidentWorkflow>({
        ...input,
        resume: { cycle, status, steps: steps.slice(-INCIDENT_STEPS_KEPT) },
      });
    }
    if (bounded) setCurrentDetails(`escalating (${policy.name}): cycle ${cycle + 1} of ${policy.repeatCount + 1}`);
    if (cycle > 0 && (await condition(ended, policy.repeatIntervalMs))) break;
    for (let i = 0; i < policy.tiers.length; i++) {
      const now = await tierNow(i);
      if (now === null || ended()) break escalation;
      await turns.exclusively(async () => {
        if (ended()) return;
        steps.push({ tier: now.index, cycle, at: new Date().toISOString() });
        if (bounded && steps.length > INCIDENT_STEPS_KEPT) steps.shift();
        await notifyEscalationTier({ ...input, tierIndex: now.index, cycle, targets: now.tier.targets });
      });
      if (await condition(ended, policy.timeoutMs)) break escalation;
    }
  }
  // Acknowledged stops the escalation; the incident stays until resolved (which also resolves its pages).
  if (bounded) setCurrentDetails(`${status}: waiting for someone to resolve it`);
  await condition(() => status === 'resolved');
  await condition(allHandlersFinished);
  return state();
}
