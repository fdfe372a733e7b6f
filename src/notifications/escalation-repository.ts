import { isUniqueViolation, type Queryable } from '../db/knex';
import { Conflict } from '../errors';
import { newestFirst } from './seq-page';
import { insertOne, timestampsOf } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import type { BusinessHoursRule, EscalationTier, IncidentStatus } from './notification-workflow-contract';

/** How similar events are grouped into one incident: by event name, or by event name and project. */
export type AggregationKey = 'event' | 'event_project';

export interface EscalationPolicy {
  id: string;
  name: string;
  triggerEvents: string[];
  tiers: EscalationTier[];
  timeoutMs: number;
  repeat: { count: number; intervalMs: number };
  aggregation: { by: AggregationKey };
  cooldownMs: number;
  businessHours: BusinessHoursRule | null;
  createdAt: string;
  updatedAt: string;
}

interface PolicyRow {
  id: string;
  name: string;
  trigger_events: string[];
  tiers: EscalationTier[];
  timeout_ms: number;
  repeat_count: number;
  repeat_interval_ms: number;
  aggregation: { by?: AggregationKey };
  cooldown_ms: number;
  business_hours: BusinessHoursRule | null;
  created_at: Date;
  updated_at: Date;
}

const POLICY_COLUMNS = [
  'id',
  'name',
  'trigger_events',
  'tiers',
  'timeout_ms',
  'repeat_count',
  'repeat_interval_ms',
  'aggregation',
  'cooldown_ms',
  'business_hours',
  'created_at',
  'updated_at',
];

const toPolicy = (r: PolicyRow): EscalationPolicy => ({
  id: r.id,
  name: r.name,
  triggerEvents: r.trigger_events,
  tiers: r.tiers,
  timeoutMs: r.timeout_ms,
  repeat: { count: r.repeat_count, intervalMs: r.repeat_interval_ms },
  aggregation: { by: r.aggregation.by ?? 'event_project' },
  cooldownMs: r.cooldown_ms,
  businessHours: r.business_hours,
  ...timestampsOf(r),
});

export type PolicyFields = Omit<EscalationPolicy, 'id' | 'createdAt' | 'updatedAt'>;

function columnsOf(p: Partial<PolicyFields>): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (p.name !== undefined) c.name = p.name;
  if (p.triggerEvents !== undefined) c.trigger_events = p.triggerEvents;
  if (p.tiers !== undefined) c.tiers = JSON.stringify(p.tiers);
  if (p.timeoutMs !== undefined) c.timeout_ms = p.timeoutMs;
  if (p.repeat !== undefined)
    Object.assign(c, { repeat_count: p.repeat.count, repeat_interval_ms: p.repeat.intervalMs });
  if (p.aggregation !== undefined) c.aggregation = JSON.stringify(p.aggregation);
  if (p.cooldownMs !== undefined) c.cooldown_ms = p.cooldownMs;
  if (p.businessHours !== undefined)
    c.business_hours = p.businessHours === null ? null : JSON.stringify(p.businessHours);
  return c;
}

export async function insertPolicy(db: Queryable, organizationId: string, p: PolicyFields): Promise<EscalationPolicy> {
  const row = await insertOne<PolicyRow>(
    db('escalation_policies')
      .insert({ organization_id: organizationId, ...columnsOf(p) })
      .returning(POLICY_COLUMNS),
    'a notification policy with this name already exists',
  );
  return toPolicy(row);
}

export async function updatePolicy(
  db: Queryable,
  organizationId: string,
  id: string,
  p: Partial<PolicyFields>,
): Promise<EscalationPolicy | null> {
  try {
    const [row] = (await db('escalation_policies')
      .where({ organization_id: organizationId, id })
      .update({ ...columnsOf(p), updated_at: db.fn.now() })
      .returning(POLICY_COLUMNS)) as PolicyRow[];
    return row ? toPolicy(row) : null;
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict('a notification policy with this name already exists');
    throw err;
  }
}

export async function deletePolicy(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await db('escalation_policies').where({ organization_id: organizationId, id }).delete()) > 0;
}

export async function findPolicy(db: Queryable, organizationId: string, id: string): Promise<EscalationPolicy | null> {
  const row = (await db('escalation_policies').where({ organization_id: organizationId, id }).first(POLICY_COLUMNS)) as
    PolicyRow | undefined;
  return row ? toPolicy(row) : null;
}

export function listPolicies(
  db: Queryable,
  organizationId: string,
  page: PageRequest,
): Promise<Page<EscalationPolicy>> {
  const query = db('escalation_policies').where({ organization_id: organizationId }).select(POLICY_COLUMNS);
  return keysetPage<PolicyRow, EscalationPolicy>(query, ['name', 'id'], page, (r) => [r.name, r.id], toPolicy);
}

export async function allPolicies(db: Queryable, organizationId: string): Promise<EscalationPolicy[]> {
  const rows = (await db('escalation_policies')
    .where({ organization_id: organizationId })
    .select(POLICY_COLUMNS)) as PolicyRow[];
  return rows.map(toPolicy);
}

export interface Incident {
  id: string;
  policyId: string;
  dedupKey: string;
  status: IncidentStatus;
  workflowId: string;
  eventCount: number;
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface IncidentRow {
  id: string;
  policy_id: string;
  dedup_key: string;
  status: IncidentStatus;
  workflow_id: string;
  event_count: number;
  acknowledged_by: string | null;
  acknowledged_at: Date | null;
  resolved_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const INCIDENT_COLUMNS = [
  'id',
  'policy_id',
  'dedup_key',
  'status',
  'workflow_id',
  'event_count',
  'acknowledged_by',
  'acknowledged_at',
  'resolved_at',
  'created_at',
  'updated_at',
];

const toIncident = (r: IncidentRow): Incident => ({
  id: r.id,
  policyId: r.policy_id,
  dedupKey: r.dedup_key,
  status: r.status,
  workflowId: r.workflow_id,
  eventCount: r.event_count,
  acknowledgedBy: r.acknowledged_by,
  acknowledgedAt: r.acknowledged_at?.toISOString() ?? null,
  resolvedAt: r.resolved_at?.toISOString() ?? null,
  ...timestampsOf(r),
});

/** The newest incident of a policy and key (open, or the last closed one, for the cooldown). */
export async function latestIncident(db: Queryable, policyId: string, dedupKey: string): Promise<Incident | null> {
  const row = (await db('escalation_incidents')
    .where({ policy_id: policyId, dedup_key: dedupKey })
    .orderBy('created_at', 'desc')
    .first(INCIDENT_COLUMNS)) as IncidentRow | undefined;
  return row ? toIncident(row) : null;
}

/** Incidents of a policy and key not yet resolved (open or acknowledged), oldest first. */
export async function unresolvedIncidents(db: Queryable, policyId: string, dedupKey: string): Promise<Incident[]> {
  const rows = (await db('escalation_incidents')
    .where({ policy_id: policyId, dedup_key: dedupKey })
    .whereIn('status', ['open', 'acknowledged'])
    .orderBy('created_at')
    .select(INCIDENT_COLUMNS)) as IncidentRow[];
  return rows.map(toIncident);
}

export async function insertIncident(
  db: Queryable,
  i: { id: string; organizationId: string; policyId: string; dedupKey: string; workflowId: string },
): Promise<Incident> {
  const [row] = (await db('escalation_incidents')
    .insert({
      id: i.id,
      organization_id: i.organizationId,
      policy_id: i.policyId,
      dedup_key: i.dedupKey,
      workflow_id: i.workflowId,
    })
    .returning(INCIDENT_COLUMNS)) as IncidentRow[];
  return toIncident(row!);
}

/** Aggregation: one more similar event joined the open incident. */
export async function countIncidentEvent(db: Queryable, id: string): Promise<void> {
  await db('escalation_incidents').where({ id }).increment('event_count', 1).update({ updated_at: db.fn.now() });
}

export async function findIncident(db: Queryable, organizationId: string, id: string): Promise<Incident | null> {
  const row = (await db('escalation_incidents')
    .where({ organization_id: organizationId, id })
    .first(INCIDENT_COLUMNS)) as IncidentRow | undefined;
  return row ? toIncident(row) : null;
}

/** By id alone: only for the signed acknowledge link, whose signature already names the incident. */
export async function findIncidentById(db: Queryable, id: string): Promise<Incident | null> {
  const row = (await db('escalation_incidents').where({ id }).first(INCIDENT_COLUMNS)) as IncidentRow | undefined;
  return row ? toIncident(row) : null;
}

/** Locks the incident row for its transition; null when gone. */
export async function lockIncident(db: Queryable, organizationId: string, id: string): Promise<Incident | null> {
  const row = (await db('escalation_incidents')
    .where({ organization_id: organizationId, id })
    .forUpdate()
    .first(INCIDENT_COLUMNS)) as IncidentRow | undefined;
  return row ? toIncident(row) : null;
}

export async function setIncidentStatus(
  db: Queryable,
  id: string,
  to: 'acknowledged' | 'resolved',
  actor: string,
): Promise<void> {
  await db('escalation_incidents')
    .where({ id })
    .update(
      to === 'acknowledged'
        ? { status: to, acknowledged_by: actor, acknowledged_at: db.fn.now(), updated_at: db.fn.now() }
        : { status: to, resolved_at: db.fn.now(), updated_at: db.fn.now() },
    );
}

/** Newest first. */
export function listIncidents(db: Queryable, organizationId: string, page: PageRequest): Promise<Page<Incident>> {
  const query = db('escalation_incidents')
    .where({ organization_id: organizationId })
    .select([...INCIDENT_COLUMNS, 'seq']);
  return newestFirst<IncidentRow & { seq: string }, Incident>(query, page, toIncident);
}
