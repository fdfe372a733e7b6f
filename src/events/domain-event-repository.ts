import type { StatementSink } from '../db/statement-batch';
import type { Queryable } from '../db/knex';

/**
 * Notifiable events of the domain, recorded in the transaction of the change they report (an outbox): the
 * notifications module reads them in `seq` order. Types are plain strings named after what happened.
 */
export const DOMAIN_EVENT = {
  imagesBulkUpdated: 'images updated via bulk operation',
  imagesWebhookUpdated: 'images updated via webhook',
  /** Spec "Events", Security category. */
  apiKeyCreated: 'apikey.create',
  breakGlassOpened: 'break_glass.opened',
  registryManifestPushed: 'artifact pushed to the organization registry',
  registryManifestDeleted: 'artifact deleted from the organization registry',
  /** Spec "Events", Deployment category. */
  releaseCreated: 'release.create',
  releaseApproved: 'release.approve',
  releaseDeployed: 'release.deploy',
  releaseFailed: 'release.fail',
  /** Spec "Events", Promotion and Rollback categories. */
  promotionRequested: 'promotion.request',
  promotionApproved: 'promotion.approve',
  promotionExecuted: 'promotion.execute',
  rollbackInitiated: 'rollback.initiate',
  rollbackCompleted: 'rollback.complete',
  /** Spec "Events", Governance category. */
  policyViolationDetected: 'policy.violation.detect',
  policyViolationResolved: 'policy.violation.resolve',
  approvalRequested: 'approval.request',
  /** Spec "Events", Cluster category. */
  agentConnected: 'agent.connect',
  agentDisconnected: 'agent.disconnect',
  driftDetected: 'drift.detect',
  /** Progressive delivery (issue 48, docs/rollouts.md). */
  rolloutHalted: 'rollout.halted',
  rolloutCompleted: 'rollout.completed',
  rolloutWaveVerified: 'rollout.wave.verified',
  /** Image automation (issue 49, docs/automation.md). */
  imageDiscovered: 'image.discovered',
  imageUpdateBlocked: 'image.update.blocked',
} as const;
export type DomainEventType = (typeof DOMAIN_EVENT)[keyof typeof DOMAIN_EVENT];

export interface DomainEventInput {
  organizationId: string;
  projectId: string | null;
  type: DomainEventType;
  payload: Record<string, unknown>;
}

export interface DomainEvent extends DomainEventInput {
  id: string;
  seq: number;
  createdAt: string;
}

interface Row {
  id: string;
  seq: string;
  organization_id: string;
  project_id: string | null;
  type: DomainEventType;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** Records an event in `sink`'s batch (a commit pass's: written with the commit's other rows). */
export function addDomainEvent(sink: StatementSink, event: DomainEventInput): void {
  sink.add(
    'INSERT INTO domain_events (organization_id, project_id, type, payload) VALUES (?::uuid, ?::uuid, ?, ?::jsonb)',
    [event.organizationId, event.projectId, event.type, JSON.stringify(event.payload)],
  );
}

export async function recordDomainEvent(db: Queryable, event: DomainEventInput): Promise<string> {
  const [row] = (await db('domain_events')
    .insert({
      organization_id: event.organizationId,
      project_id: event.projectId,
      type: event.type,
      payload: JSON.stringify(event.payload),
    })
    .returning('id')) as { id: string }[];
  return row!.id;
}

/** Events of one organization after `afterSeq`, oldest first. */
export async function listDomainEvents(
  db: Queryable,
  organizationId: string,
  afterSeq = 0,
  limit = 100,
): Promise<DomainEvent[]> {
  const rows = (await db('domain_events')
    .where({ organization_id: organizationId })
    .andWhere('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .select('id', 'seq', 'organization_id', 'project_id', 'type', 'payload', 'created_at')) as Row[];
  return rows.map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    organizationId: r.organization_id,
    projectId: r.project_id,
    type: r.type,
    payload: r.payload,
    createdAt: r.created_at.toISOString(),
  }));
}

/** Organizations that recorded an event since `since` (the notifications reconciler starts their dispatchers). */
export async function organizationsWithEventsSince(db: Queryable, since: Date): Promise<string[]> {
  const rows = (await db('domain_events').where('created_at', '>=', since).distinct('organization_id')) as {
    organization_id: string;
  }[];
  return rows.map((r) => r.organization_id);
}
