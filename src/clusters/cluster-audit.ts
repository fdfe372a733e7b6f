import type { AuditService } from '../audit/audit-service';
import type { AuditActor } from '../audit/types';
import type { Tx } from '../db/knex';
import { auditActor, type OrgCaller } from '../iam/caller';
import { recordDomainEvent, type DomainEventType } from '../events/domain-event-repository';

/** The actor of what an agent reports (results, drift) and of the heartbeat workflow's transitions. */
export function agentActor(cluster: { id: string }): AuditActor {
  return { userId: null, actorType: 'system', actor: `agent:${cluster.id}`, requestId: null };
}

export interface ClusterChange {
  cluster: { id: string; organizationId: string; name: string };
  action: string;
  actor: AuditActor;
  details?: Record<string, unknown>;
  workflowId?: string;
  /** A notifiable event of the spec's Cluster category, written in the same transaction (the outbox). */
  event?: DomainEventType;
}

/** One audit entry (category `cluster`) and, when named, its domain event: called inside the change's transaction. */
export async function recordClusterChange(trx: Tx, audit: AuditService, change: ClusterChange): Promise<void> {
  const { cluster, actor } = change;
  const details = { name: cluster.name, ...change.details };
  await audit.append(trx, {
    organizationId: cluster.organizationId,
    userId: actor.userId,
    actorType: actor.actorType,
    actor: actor.actor,
    requestId: actor.requestId,
    action: change.action,
    category: 'cluster',
    resourceType: 'cluster',
    resourceId: cluster.id,
    workflowId: change.workflowId ?? null,
    details,
  });
  if (change.event) {
    await recordDomainEvent(trx, {
      organizationId: cluster.organizationId,
      projectId: null,
      type: change.event,
      payload: { clusterId: cluster.id, ...details },
    });
  }
}

/** A change a person (or machine credential) made to one of the caller's organization's clusters. */
export function callerChangeRecorder(audit: AuditService) {
  return (trx: Tx, caller: OrgCaller, cluster: { id: string; name: string }, action: string, details?: object) =>
    recordClusterChange(trx, audit, {
      cluster: { id: cluster.id, name: cluster.name, organizationId: caller.organizationId },
      action,
      actor: auditActor(caller),
      details: details as Record<string, unknown> | undefined,
    });
}
