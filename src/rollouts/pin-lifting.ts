import type { AuditService } from '../audit/audit-service';
import type { Tx } from '../db/knex';
import { unpinEntry } from '../pins/pin-release';
import { projectPins, unpinTarget, type PinRow } from '../pins/pin-repository';
import { listProjectEnvironments } from '../projects/project-environment-repository';
import { findRelease } from '../releases/release-repository';
import { findRolloutPlan } from './rollout-plan-repository';

/** A version the controller just verified (Synced and Healthy at the desired content) in one Application. */
export interface Verified {
  organizationId: string;
  projectId: string;
  tenantId: string;
  environment: string;
  service: string;
  version: string | null;
}

const SYSTEM = { userId: null, actorType: 'system' as const, actor: 'pin-lifting', requestId: null };

/**
 * Automation that respects a rollback, and resumes by itself (issue 48 item 6, docs/rollouts.md): when a version of a
 * service is verified in an environment, the pin a rollback left on the same tenant in the next environment of the
 * promotion order is lifted, if that environment's rollout plan says `liftPinsWhenVerifiedUpstream` and the version is
 * neither the one the rollback went back to nor the one it rolled back from (a newer fix, not the bad version again).
 * In the verification's transaction, with a `target.unpin` entry naming what lifted it; image webhooks then update the
 * target again. Answers the pins lifted.
 */
export async function liftPinsVerifiedUpstream(trx: Tx, audit: AuditService, v: Verified): Promise<PinRow[]> {
  if (v.version === null) return [];
  const order = await listProjectEnvironments(trx, v.projectId);
  const at = order.findIndex((e) => e.environment === v.environment);
  const downstream = at === -1 ? undefined : order[at + 1]?.environment;
  if (!downstream) return [];
  const plan = await findRolloutPlan(trx, v.organizationId, v.projectId, downstream);
  if (!plan?.liftPinsWhenVerifiedUpstream) return [];
  const pin = (await projectPins(trx, v.projectId, downstream)).find((p) => p.tenant_id === v.tenantId);
  if (!pin?.release_id) return [];
  const rollback = await findRelease(trx, v.organizationId, pin.release_id);
  if (!rollback || rollback.kind !== 'rollback') return [];
  const moved = (rollback.versions ?? []).filter((m) => m.workload === v.service);
  if (moved.some((m) => m.to === v.version || m.from === v.version)) return [];
  const removed = await unpinTarget(trx, v.projectId, v.tenantId, downstream);
  if (!removed) return [];
  await audit.append(
    trx,
    unpinEntry(removed, SYSTEM, {
      kind: 'verified-upstream',
      environment: v.environment,
      service: v.service,
      version: v.version,
    }),
  );
  return [removed];
}
