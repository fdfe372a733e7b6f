import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { claimSend } from './delivery-repository';
import { RESOLVING_EVENTS, selects } from './event-catalog';
import {
  allPolicies,
  countIncidentEvent,
  insertIncident,
  latestIncident,
  lockIncident,
  setIncidentStatus,
  unresolvedIncidents,
  type EscalationPolicy,
  type Incident,
} from './escalation-repository';
import type { NotificationMessage } from './message';
import {
  INCIDENT_FAILURE,
  incidentWorkflowId,
  type EscalationSnapshot,
  type IncidentActionRequest,
  escalationIncidentWorkflowType,
} from './notification-workflow-contract';

export interface IncidentDeps {
  db: Db;
  audit: AuditService;
  workflows: WorkflowStarter;
  /**
   * Starts the `resolveIncident` Update of an incident's workflow (`updateId` deduplicates a retried call; an
   * incident already closed is no error).
   */
  resolveIncident(incident: Incident, request: IncidentActionRequest, updateId: string): Promise<void>;
}

const SYSTEM = { userId: null, actorType: 'system' as const, actor: 'notifications', requestId: null };

function snapshot(p: EscalationPolicy): EscalationSnapshot {
  return {
    policyId: p.id,
    name: p.name,
    tiers: p.tiers,
    timeoutMs: p.timeoutMs,
    repeatCount: p.repeat.count,
    repeatIntervalMs: p.repeat.intervalMs,
    businessHours: p.businessHours,
  };
}

/** Similar events share a key: the event name, and the project unless the policy aggregates across projects. */
function keyOf(p: EscalationPolicy, m: Pick<NotificationMessage, 'event' | 'projectId'>): string {
  return p.aggregation.by === 'event' ? m.event : `${m.event}:${m.projectId ?? '-'}`;
}

type Decision = { open: Incident } | { joined: Incident } | { suppressed: Incident } | null;

/**
 * Routes one event to the organization's escalation policies: a matching policy opens an incident, or the event
 * joins the open incident of the same key (aggregation), or it is dropped inside the cooldown after an
 * acknowledgement. Each (event, policy) is decided once (claim row; deduplication). The incident's workflow starts
 * after the row's commit, and again (USE_EXISTING) whenever the same event is seen while the incident is open, so a
 * crash between commit and start is repaired by the activity's retry.
 */
export async function routeToEscalations(
  deps: IncidentDeps,
  message: NotificationMessage,
  now = new Date(),
): Promise<void> {
  for (const policy of await allPolicies(deps.db, message.organizationId)) {
    if (!selects(policy.triggerEvents, message.event)) continue;
    const key = keyOf(policy, message);
    const decision: Decision = await deps.db.transaction(async (trx) => {
      const latest = await latestIncident(trx, policy.id, key);
      if (!(await claimSend(trx, message.organizationId, `escalation:${message.eventId}:${policy.id}`))) {
        return latest?.status === 'open' ? { open: latest } : null;
      }
      if (latest?.status === 'open') {
        await countIncidentEvent(trx, latest.id);
        return { joined: latest };
      }
      const ackAt = latest?.acknowledgedAt ? Date.parse(latest.acknowledgedAt) : null;
      if (latest && ackAt !== null && now.getTime() < ackAt + policy.cooldownMs) return { suppressed: latest };
      const id = randomUUID();
      const incident = await insertIncident(trx, {
        id,
        organizationId: message.organizationId,
        policyId: policy.id,
        dedupKey: key,
        workflowId: incidentWorkflowId(id),
      });
      await deps.audit.append(trx, {
        organizationId: message.organizationId,
        projectId: message.projectId,
        ...SYSTEM,
        action: 'notification.incident.open',
        category: 'delivery',
        resourceType: 'escalation_incident',
        resourceId: id,
        workflowId: incident.workflowId,
        details: { policyId: policy.id, policy: policy.name, event: message.event, eventId: message.eventId, key },
      });
      return { open: incident };
    });
    if (decision && 'open' in decision) {
      await deps.workflows.start(escalationIncidentWorkflowType, {
        workflowId: decision.open.workflowId,
        args: [
          { incidentId: decision.open.id, organizationId: message.organizationId, policy: snapshot(policy), message },
        ],
        labels: { organizationId: message.organizationId, projectId: message.projectId },
        summary: `escalation "${policy.name}": ${message.title}`,
      });
    }
  }
}

/**
 * A resolving event (`policy.violation.resolve`, `drift.resolve`, `agent.connect`) resolves the unresolved incidents,
 * open or acknowledged, that its counterpart opened under each policy with the same aggregation key: the only other
 * way besides the API that an incident closes. Acknowledged incidents stay open until then.
 */
export async function resolveByEvent(deps: IncidentDeps, message: NotificationMessage): Promise<void> {
  const resolves = RESOLVING_EVENTS[message.event as keyof typeof RESOLVING_EVENTS];
  if (resolves === undefined) return;
  for (const policy of await allPolicies(deps.db, message.organizationId)) {
    if (!selects(policy.triggerEvents, resolves)) continue;
    const key = keyOf(policy, { event: resolves, projectId: message.projectId });
    for (const incident of await unresolvedIncidents(deps.db, policy.id, key)) {
      const request = { actor: { ...SYSTEM, actor: `event:${message.event}` }, via: 'event' as const };
      await deps.resolveIncident(incident, request, `resolve-by-event-${message.eventId}`);
    }
  }
}

/** The row and audit side of an acknowledge or resolve (the workflow's Update handler runs it). */
export async function recordTransition(
  deps: Pick<IncidentDeps, 'db' | 'audit'>,
  input: { incidentId: string; organizationId: string; to: 'acknowledged' | 'resolved' } & IncidentActionRequest,
): Promise<void> {
  await deps.db.transaction(async (trx) => {
    const incident = await lockIncident(trx, input.organizationId, input.incidentId);
    if (!incident) throw ApplicationFailure.nonRetryable('incident not found', INCIDENT_FAILURE.notOpen);
    if (incident.status === input.to) return; // this activity's own earlier attempt
    if (incident.status === 'resolved' || (input.to === 'acknowledged' && incident.status !== 'open')) {
      throw ApplicationFailure.nonRetryable(`incident is ${incident.status}`, INCIDENT_FAILURE.notOpen);
    }
    await setIncidentStatus(trx, incident.id, input.to, input.actor.actor);
    await deps.audit.append(trx, {
      organizationId: input.organizationId,
      ...input.actor,
      action: input.to === 'acknowledged' ? 'notification.incident.acknowledge' : 'notification.incident.resolve',
      category: 'delivery',
      resourceType: 'escalation_incident',
      resourceId: incident.id,
      workflowId: incident.workflowId,
      details: { policyId: incident.policyId, via: input.via, events: incident.eventCount },
    });
  });
}
