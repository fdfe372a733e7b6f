import type { RolloutRow } from './rollout-repository';

/** A rollout as the API shows it: each wave with its tenants, what it waits for, its promotions and measurements. */
export function rolloutView(row: RolloutRow, projectSlug: string) {
  return {
    id: row.id,
    project: projectSlug,
    sourceEnvironment: row.source_environment,
    environment: row.environment,
    version: row.plan.version,
    status: row.status,
    statusReason: row.status_reason,
    currentWave: row.current_wave,
    rollbackOnHalt: row.plan.rollbackOnHalt,
    waves: row.plan.waves.map((wave, i) => {
      const record = row.waves[i];
      return {
        name: wave.name,
        selection: wave.selection,
        tenants: wave.tenants,
        soakSeconds: wave.soakSeconds,
        approvalGate: wave.approvalGate,
        checks: wave.checks.map((c) => ({ kind: c.kind, name: c.name, count: c.count, failureLimit: c.failureLimit })),
        state: record?.state ?? 'Pending',
        reason: record?.reason ?? null,
        promotionIds: record?.promotionIds ?? [],
        measurements: record?.measurements ?? [],
      };
    }),
    workflowId: row.workflow_id,
    createdBy: row.created_by_actor,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
