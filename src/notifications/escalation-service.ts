import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { Page, PageRequest } from '../db/pagination';
import { Conflict, InvalidInput, NotFound } from '../errors';
import type { SecretBox } from '../identity/mfa/secret-box';
import { auditActor, type OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import { findMember } from '../orgs/membership-repository';
import type { PlanGate } from '../plans/plan-gate';
import { findTeam } from '../teams/team-repository';
import { isValidTimeZone } from './business-hours';
import type { DispatcherPort } from './channel-service';
import { findChannel } from './channel-repository';
import { canonicalSelector, isEventSelector } from './event-catalog';
import {
  deletePolicy,
  findIncident,
  findIncidentById,
  findPolicy,
  insertPolicy,
  listIncidents,
  listPolicies,
  updatePolicy,
  type EscalationPolicy,
  type Incident,
  type PolicyFields,
} from './escalation-repository';
import { incidentOfToken } from './incident-link';
import {
  INCIDENT_FAILURE,
  acknowledgeIncidentUpdate,
  resolveIncidentUpdate,
  type EscalationTier,
  type IncidentActionRequest,
  type IncidentState,
} from './notification-workflow-contract';

export interface PolicyInput {
  name?: string;
  triggerEvents?: string[];
  tiers?: EscalationTier[];
  timeoutMs?: number;
  repeat?: { count: number; intervalMs: number };
  aggregation?: { by: 'event' | 'event_project' };
  cooldownMs?: number;
  businessHours?: PolicyFields['businessHours'];
}

/** What a new policy gets for the fields it leaves out: no repeat, aggregation per event and project, no cooldown. */
const POLICY_DEFAULTS: Partial<PolicyFields> = {
  repeat: { count: 0, intervalMs: 60_000 },
  aggregation: { by: 'event_project' },
  cooldownMs: 0,
  businessHours: null,
};

export type EscalationService = ReturnType<typeof createEscalationService>;

/** Maps the incident workflow's rejections to HTTP answers (a closed incident is a conflict). */
function incidentUpdateError(err: unknown): unknown {
  if (err instanceof WorkflowNotFoundError) return new Conflict('incident is closed');
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const type = err.cause.type;
    if (type === INCIDENT_FAILURE.notOpen || type === INCIDENT_FAILURE.resolved) return new Conflict(err.cause.message);
  }
  return err;
}

/**
 * Escalation policies (Pro and Enterprise; /api/v2/notifications/escalation-policies) and their incidents
 * (/api/v2/notifications/incidents). Incidents are opened by the dispatcher (incident-opener.ts); people acknowledge
 * or resolve them here, through the incident workflow's Updates.
 */
export function createEscalationService(
  deps: OrgDomainDeps & { plans: PlanGate; temporal: Client; secrets: SecretBox; dispatcher: DispatcherPort },
) {
  const { db } = deps;
  const policies = orgResource(
    deps,
    { table: 'escalation_policies', resourceType: 'notification policy', category: 'configuration' },
    findPolicy,
  );
  const incidents = orgResource(
    deps,
    { table: 'escalation_incidents', resourceType: 'incident', category: 'delivery' },
    findIncident,
  );

  /** Every target must be a channel, member or team of the organization; the rest of the shape is schema-checked. */
  async function checked(caller: OrgCaller, input: PolicyInput): Promise<Partial<PolicyFields>> {
    const bad = input.triggerEvents?.find((e) => !isEventSelector(e));
    if (bad !== undefined) throw new InvalidInput(`unknown event or group: ${bad}`);
    const hours = input.businessHours;
    if (hours && !isValidTimeZone(hours.timeZone)) throw new InvalidInput(`unknown time zone: ${hours.timeZone}`);
    if (hours?.outside === 'after_hours_tier' && !hours.afterHoursTier) {
      throw new InvalidInput('afterHoursTier is required when outside is after_hours_tier');
    }
    const tiers = [...(input.tiers ?? []), ...(hours?.afterHoursTier ? [hours.afterHoursTier] : [])];
    for (const t of tiers.flatMap((tier) => tier.targets)) {
      const org = caller.organizationId;
      const exists =
        t.kind === 'channel'
          ? await findChannel(db, org, t.id)
          : t.kind === 'user'
            ? await findMember(db, org, t.id)
            : await findTeam(db, org, t.id);
      if (!exists) throw new InvalidInput(`escalation target not found: ${t.kind} ${t.id}`);
    }
    const { triggerEvents, ...rest } = input;
    return { ...rest, ...(triggerEvents ? { triggerEvents: [...new Set(triggerEvents.map(canonicalSelector))] } : {}) };
  }

  const audited = (p: EscalationPolicy) => ({ id: p.id, slug: p.name });

  async function act(incident: Incident, update: typeof acknowledgeIncidentUpdate, req: IncidentActionRequest) {
    try {
      return await deps.temporal.workflow.getHandle(incident.workflowId).executeUpdate(update, { args: [req] });
    } catch (err) {
      throw incidentUpdateError(err);
    }
  }

  return {
    list: (caller: OrgCaller, page: PageRequest): Promise<Page<EscalationPolicy>> =>
      listPolicies(db, caller.organizationId, page),

    get: (caller: OrgCaller, id: string) => policies.lookup(caller, id),

    async create(
      caller: OrgCaller,
      input: PolicyInput & Pick<PolicyFields, 'name' | 'triggerEvents' | 'tiers' | 'timeoutMs'>,
    ) {
      await deps.plans.require(caller.organizationId, 'escalation_policies');
      const fields = await checked(caller, input);
      const policy = await db.transaction(async (trx) => {
        const created = await insertPolicy(trx, caller.organizationId, {
          ...POLICY_DEFAULTS,
          ...fields,
        } as PolicyFields);
        await policies.record(trx, caller, 'notification.policy.create', audited(created), { policy: created });
        return created;
      });
      await deps.dispatcher.ensure(caller.organizationId);
      return policy;
    },

    async update(caller: OrgCaller, id: string, input: PolicyInput): Promise<EscalationPolicy> {
      await deps.plans.require(caller.organizationId, 'escalation_policies');
      const current = await policies.lookup(caller, id);
      const fields = await checked(caller, input);
      return db.transaction(async (trx) => {
        const updated = await updatePolicy(trx, caller.organizationId, current.id, fields);
        policies.found(updated !== null);
        await policies.record(trx, caller, 'notification.policy.update', audited(current), { changes: fields });
        return updated!;
      });
    },

    async delete(caller: OrgCaller, id: string): Promise<void> {
      const current = await policies.lookup(caller, id);
      await db.transaction(async (trx) => {
        policies.found(await deletePolicy(trx, caller.organizationId, current.id));
        await policies.record(trx, caller, 'notification.policy.delete', audited(current));
      });
    },

    incidents: (caller: OrgCaller, page: PageRequest): Promise<Page<Incident>> =>
      listIncidents(db, caller.organizationId, page),

    incident: (caller: OrgCaller, id: string) => incidents.lookup(caller, id),

    async acknowledge(caller: OrgCaller, id: string): Promise<IncidentState> {
      const incident = await incidents.lookup(caller, id);
      return act(incident, acknowledgeIncidentUpdate, { actor: auditActor(caller), via: 'api' });
    },

    async resolve(caller: OrgCaller, id: string): Promise<IncidentState> {
      const incident = await incidents.lookup(caller, id);
      return act(incident, resolveIncidentUpdate, { actor: auditActor(caller), via: 'api' });
    },

    /**
     * The dispatcher's resolve after a resolving event (system actor): waits until the workflow accepted the Update,
     * not for its activities (the dispatcher's turn is not held up by the paging resolves). `updateId` makes a retried
     * turn's call the same Update; an incident closed meanwhile stays as it is.
     */
    async startResolve(incident: Incident, req: IncidentActionRequest, updateId: string): Promise<void> {
      try {
        await deps.temporal.workflow
          .getHandle(incident.workflowId)
          .startUpdate(resolveIncidentUpdate, { args: [req], waitForStage: 'ACCEPTED', updateId });
      } catch (err) {
        if (!(incidentUpdateError(err) instanceof Conflict)) throw err;
      }
    },

    /** The signed link: no session; the signature names the incident, the workflow makes it single-use. */
    async acknowledgeByLink(token: string): Promise<IncidentState> {
      const incidentId = incidentOfToken(deps.secrets, token);
      const incident = incidentId ? await findIncidentById(db, incidentId) : null;
      if (!incident) throw new NotFound('incident not found');
      return act(incident, acknowledgeIncidentUpdate, {
        actor: { userId: null, actorType: 'system', actor: 'acknowledge link', requestId: null },
        via: 'link',
      });
    },
  };
}
