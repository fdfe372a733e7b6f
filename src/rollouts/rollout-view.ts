import { imageChangeText } from '../promotions/promotion-source';
import type { RolloutRow } from './rollout-repository';

/** What a rollout moves from, in words: its source environment, or an image rollout's change (`image web 2.0.0`). */
export function rolloutSourceText(row: RolloutRow): string {
  return row.source_environment ?? (row.plan.change ? imageChangeText(row.plan.change) : 'image');
}

/** Where a request that started a rollout points: the rollout in the API and in the web UI. */
export const rolloutLinks = (id: string) => ({ rollout: `/api/v2/rollouts/${id}`, ui: `/rollouts/${id}` });

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
