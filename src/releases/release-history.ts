import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const EventType = temporal.api.enums.v1.EventType;

export interface TimelineEntry {
  step: string;
  actor: string | null;
  time: string;
  result: unknown;
  commitSha: string | null;
}

/** Activities of the release and promotion workflows and the step each one is on the timeline. */
const STEPS: Record<string, (input: Record<string, unknown>) => string> = {
  evaluatePromotion: () => 'evaluate the causes',
  transitionPromotion: (i) => `status ${String(i.to)}`,
  recordPromotionApproval: () => 'approve',
  markPromotionCommitted: () => 'committed',
  recordPromotionSync: (i) => `sync report ${String(i.report && (i.report as { tenant?: string }).tenant)}`,
  prepareRelease: () => 'validate',
  transitionRelease: (i) => `status ${String(i.to)}`,
  finishRelease: (i) => `end ${String(i.to)}`,
  recordReleaseDecision: (i) => String(i.decision),
  acquireReleaseTarget: () => 'take the target',
  markReleaseCommitted: () => 'committed',
  recordReleaseSync: () => 'sync report',
  commitToRepository: () => 'commit',
};

function decode(payloads: Payload[] | null | undefined): unknown[] {
  return (payloads ?? []).map((p) => {
    try {
      return defaultPayloadConverter.fromPayload(p);
    } catch {
      return null;
    }
  });
}

function timeOf(event: HistoryEvent): string {
  const t = event.eventTime;
  const ms = Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
  return new Date(ms).toISOString();
}

function actorOf(value: unknown): string | null {
  const v = value as { actor?: { actor?: unknown }; report?: { actor?: { actor?: unknown } } } | null;
  const actor = v?.actor?.actor ?? v?.report?.actor?.actor;
  return typeof actor === 'string' ? actor : null;
}

/**
 * The workflow's history as a readable timeline: each step (activity), who acted (from the step's own input: history
 * keeps no end-user identity otherwise), when it completed, its result, and the commit SHA once there is one.
 * Accepted Updates (approve, deploy, ...) appear as the requests they were; rejected ones leave no history.
 */
export function releaseTimeline(history: History): TimelineEntry[] {
  const scheduled = new Map<string, { name: string; input: Record<string, unknown> }>();
  const timeline: TimelineEntry[] = [];
  let commitSha: string | null = null;
  for (const event of history.events ?? []) {
    const type = event.eventType;
    if (type === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
      const [input] = decode(event.workflowExecutionStartedEventAttributes?.input?.payloads as Payload[]);
      const requester = (input as { requester?: { actor?: string } } | null)?.requester?.actor ?? null;
      timeline.push({ step: 'created', actor: requester, time: timeOf(event), result: null, commitSha });
    } else if (type === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      const attrs = event.activityTaskScheduledEventAttributes;
      const name = attrs?.activityType?.name ?? '';
      const [input] = decode(attrs?.input?.payloads as Payload[]);
      if (STEPS[name]) scheduled.set(String(event.eventId), { name, input: (input ?? {}) as Record<string, unknown> });
    } else if (type === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
      const attrs = event.activityTaskCompletedEventAttributes;
      const step = scheduled.get(String(attrs?.scheduledEventId));
      if (!step) continue;
      const [result] = decode(attrs?.result?.payloads as Payload[]);
      if (step.name === 'markReleaseCommitted') commitSha = String(step.input.sha);
      if (step.name === 'commitToRepository') commitSha = (result as { sha?: string | null } | null)?.sha ?? commitSha;
      const label = STEPS[step.name]?.(step.input) ?? step.name;
      timeline.push({
        step: label,
        actor: actorOf(step.input),
        time: timeOf(event),
        result: result ?? null,
        commitSha,
      });
    } else if (type === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED) {
      const request = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
      const [args] = decode(request?.args?.payloads as Payload[]);
      timeline.push({
        step: `request ${request?.name ?? 'update'}`,
        actor: actorOf(args),
        time: timeOf(event),
        result: null,
        commitSha,
      });
    } else if (type === EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED) {
      const [result] = decode(event.childWorkflowExecutionCompletedEventAttributes?.result?.payloads as Payload[]);
      const sha = (result as { sha?: string | null } | null)?.sha ?? null;
      timeline.push({ step: 'commit', actor: null, time: timeOf(event), result, commitSha: sha ?? commitSha });
    }
  }
  return timeline;
}
