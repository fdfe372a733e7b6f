import type { AuditService } from '../audit/audit-service';
import type { AuditActor, AuditEntryInput } from '../audit/types';
import type { Tx } from '../db/knex';
import { unpinTarget, type PinRow } from './pin-repository';

/**
 * What released a pin: a person unpinning, a later explicit release or promotion deployed into the target, or a newer
 * version verified upstream (a rollout plan's `liftPinsWhenVerifiedUpstream`).
 */
export type PinReleaser =
  | { kind: 'unpin' }
  | { kind: 'release' | 'promotion'; id: string; title: string }
  | { kind: 'verified-upstream'; environment: string; service: string; version: string };

/** The `target.unpin` entry of a removed pin (category configuration, on the tenant), whoever released it. */
export function unpinEntry(
  removed: PinRow,
  actor: AuditActor,
  releasedBy: PinReleaser,
  extra: Pick<AuditEntryInput, 'workflowId' | 'gitCommitSha'> = {},
): AuditEntryInput {
  return {
    organizationId: removed.organization_id,
    ...actor,
    action: 'target.unpin',
    category: 'configuration',
    projectId: removed.project_id,
    tenantId: removed.tenant_id,
    resourceType: 'tenant',
    resourceId: removed.tenant_id,
    ...extra,
    details: {
      tenant: removed.tenant_slug,
      environment: removed.environment,
      pinnedBy: removed.pinned_by_actor,
      reason: removed.reason,
      releasedBy,
    },
  };
}

/**
 * A later explicit release or promotion committed into a pinned target moves it forward on purpose: the pin a rollback
 * left is released in the commit's transaction, with its `target.unpin` entry (docs/promotions.md#the-pin-a-rollback-leaves).
 * Nothing happens when the target is not pinned.
 */
export async function releasePinByDeploy(
  trx: Tx,
  audit: Pick<AuditService, 'append'>,
  target: { projectId: string; tenantId: string; environment: string },
  actor: AuditActor,
  by: { kind: 'release' | 'promotion'; id: string; title: string; workflowId: string; gitCommitSha: string },
): Promise<PinRow | null> {
  const removed = await unpinTarget(trx, target.projectId, target.tenantId, target.environment);
  if (!removed) return null;
  const { workflowId, gitCommitSha, ...releasedBy } = by;
  await audit.append(trx, unpinEntry(removed, actor, releasedBy, { workflowId, gitCommitSha }));
  return removed;
}
