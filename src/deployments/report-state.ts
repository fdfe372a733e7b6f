import type { Tx } from '../db/knex';
import {
  appendEvent,
  findTarget,
  positionNumber,
  positionOf,
  saveTarget,
  versionAt,
} from './deployed-state-repository';
import { reportOrder, type ReportOutcome } from './report-order';
import { takeAdvisoryLock } from '../db/advisory-lock';

export interface ControllerReport {
  organizationId: string;
  projectId: string;
  tenantId: string;
  tenant: string;
  environment: string;
  service: string;
  revision: string;
  syncStatus: string;
  healthStatus: string;
  reportedAt: Date;
}

/**
 * Serializes what happens to one tenant and environment's deployed state for the rest of the transaction: controller
 * reports and a workflow taking note of its commit, so a report is never lost between the two.
 */
export async function lockDeployedTarget(
  trx: Tx,
  t: { projectId: string; tenantId: string; environment: string },
): Promise<void> {
  await takeAdvisoryLock(trx, `deployed-target:${t.projectId}:${t.tenantId}:${t.environment}`);
}

const isHealthy = (r: { syncStatus: string; healthStatus: string }) =>
  r.syncStatus === 'Synced' && r.healthStatus === 'Healthy';

/**
 * Records a controller report as the Application's live state (unless stale or identical, see reportOrder) with its
 * history. When the report is Synced and Healthy at a revision that carries the desired content, that content is
 * verified from then on (a `verified` history entry each time it becomes so); any other report ends the
 * verification. Call under lockDeployedTarget.
 */
export async function recordReport(
  trx: Tx,
  r: ControllerReport,
): Promise<{ outcome: ReportOutcome; position: number | null; verified: boolean; version: string | null }> {
  const key = { projectId: r.projectId, tenantId: r.tenantId, environment: r.environment, service: r.service };
  const position = await positionOf(trx, r.projectId, r.revision);
  const row = await findTarget(trx, key, true);
  const stored =
    row?.reported_at && row.live_revision
      ? {
          revision: row.live_revision,
          position: positionNumber(row.live_position),
          syncStatus: row.sync_status ?? '',
          healthStatus: row.health_status ?? '',
          reportedAt: row.reported_at,
        }
      : null;
  const outcome = reportOrder(stored, { ...r, position });
  if (outcome !== 'applied') return { outcome, position, verified: false, version: null };

  const desired = positionNumber(row?.desired_position ?? null);
  const carries = desired !== null && position !== null && position >= desired;
  const verifiedNow = isHealthy(r) && carries;
  const healthySince = verifiedNow ? (row?.healthy_since ?? r.reportedAt) : null;
  const at = new Date();
  await saveTarget(
    trx,
    { ...key, organization_id: r.organizationId, tenant_slug: r.tenant },
    {
      live_revision: r.revision,
      live_position: position === null ? null : String(position),
      live_version: position === null ? null : await versionAt(trx, key, position),
      sync_status: r.syncStatus,
      health_status: r.healthStatus,
      reported_at: r.reportedAt,
      received_at: at,
      healthy_since: healthySince,
    },
  );
  const event = { ...key, organizationId: r.organizationId, revision: r.revision, position, at };
  await appendEvent(trx, {
    ...event,
    kind: 'report',
    syncStatus: r.syncStatus,
    healthStatus: r.healthStatus,
    reportedAt: r.reportedAt,
  });
  const newlyVerified = verifiedNow && !row?.healthy_since && Boolean(row?.desired_revision);
  if (newlyVerified && row?.desired_revision) {
    await appendEvent(trx, {
      ...event,
      kind: 'verified',
      revision: row.desired_revision,
      position: desired,
      digest: row.desired_digest,
      version: row.desired_version,
      sourceKind: row.source_kind,
      sourceId: row.source_id,
      actor: row.actor,
      at: r.reportedAt,
    });
  }
  return { outcome, position, verified: newlyVerified, version: newlyVerified ? (row?.desired_version ?? null) : null };
}
