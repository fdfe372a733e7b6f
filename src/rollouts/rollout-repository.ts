import type { Queryable, Tx } from '../db/knex';
import type { ImageChange } from '../promotions/promotion-plan';
import type { Measurement } from '../verification/check-spec';
import {
  OPEN_ROLLOUT_STATUSES,
  type RolloutStatus,
  type RolloutWave,
  type WaveState,
} from './rollout-workflow-contract';
import { takeAdvisoryLock } from '../db/advisory-lock';

/** What the row keeps of one wave: its state, promotions (one per deploy attempt), commit and measurements. */
export interface WaveRecord {
  state: WaveState;
  promotionIds: string[];
  measurements: Measurement[];
  reason: string | null;
}

export interface RolloutRow {
  id: string;
  organization_id: string;
  project_id: string;
  /** Null for an image rollout (a bulk image update to an environment with a plan): `plan.change` is what it sets. */
  source_environment: string | null;
  environment: string;
  plan: {
    waves: RolloutWave[];
    rollbackOnHalt: boolean;
    liftPinsWhenVerifiedUpstream: boolean;
    version: string;
    change?: ImageChange;
    /** An image rollout: the older ones of its workload and environment (another tag, in flight) it supersedes. */
    supersedes?: string[];
  };
  services: string[] | null;
  status: RolloutStatus;
  status_reason: string | null;
  current_wave: number;
  waves: WaveRecord[];
  workflow_id: string;
  created_by: string | null;
  created_by_actor: string;
  workflow_started_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewRollout = Omit<RolloutRow, 'created_at' | 'updated_at' | 'workflow_started_at' | 'status_reason'>;

/** Measurements kept per wave on the row (the newest); the audit log keeps every one. */
export const MEASUREMENTS_KEPT = 200;

export async function insertRollout(trx: Tx, rollout: NewRollout): Promise<RolloutRow> {
  const [row] = (await trx('rollouts')
    .insert({
      ...rollout,
      plan: JSON.stringify(rollout.plan),
      services: rollout.services === null ? null : JSON.stringify(rollout.services),
      waves: JSON.stringify(rollout.waves),
    })
    .returning('*')) as RolloutRow[];
  return row!;
}

/**
 * The image rollouts of `change.workload` in `environment` still in flight with another tag: the ones an image rollout
 * of `change` inserted next in this transaction supersedes. The lock, held to the end of the transaction, makes every
 * such insert see the ones before it, so of any two the later one supersedes the earlier.
 */
export async function openImageRollouts(
  trx: Tx,
  target: { organizationId: string; projectId: string; environment: string; change: ImageChange },
): Promise<string[]> {
  const { organizationId, projectId, environment, change } = target;
  await takeAdvisoryLock(trx, `image-rollouts:${projectId}/${environment}/${change.workload}`);
  const rows = (await trx('rollouts')
    .where({ organization_id: organizationId, project_id: projectId, environment })
    .whereNull('source_environment')
    .whereIn('status', OPEN_ROLLOUT_STATUSES)
    .whereRaw("plan->'change'->>'workload' = ?", [change.workload])
    .whereRaw("plan->'change'->>'tag' <> ?", [change.tag])
    .orderBy('created_at')
    .select('id')) as { id: string }[];
  return rows.map((r) => r.id);
}

export async function findRollout(db: Queryable, organizationId: string, id: string): Promise<RolloutRow | null> {
  return ((await db('rollouts').where({ organization_id: organizationId, id }).first()) as RolloutRow) ?? null;
}

/** The row, locked for the rest of the transaction (a workflow activity's read-check-write). */
export async function lockRollout(trx: Tx, id: string): Promise<RolloutRow | null> {
  return ((await trx('rollouts').where({ id }).forUpdate().first()) as RolloutRow | undefined) ?? null;
}

export async function updateRollout(
  trx: Tx,
  id: string,
  changes: Partial<Pick<RolloutRow, 'status' | 'status_reason' | 'current_wave' | 'waves'>>,
): Promise<void> {
  const { waves, ...rest } = changes;
  await trx('rollouts')
    .where({ id })
    .update({ ...rest, ...(waves ? { waves: JSON.stringify(waves) } : {}), updated_at: trx.fn.now() });
}

export async function markRolloutWorkflowStarted(db: Queryable, id: string): Promise<void> {
  await db('rollouts').where({ id }).whereNull('workflow_started_at').update({ workflow_started_at: db.fn.now() });
}

export async function listRollouts(db: Queryable, organizationId: string, projectId: string, limit: number) {
  return (await db('rollouts')
    .where({ organization_id: organizationId, project_id: projectId })
    .orderBy('created_at', 'desc')
    .limit(limit)) as RolloutRow[];
}

/** Rows committed more than `olderThan` ago whose workflow was never recorded as started. */
export async function listUnstartedRollouts(db: Queryable, olderThan: Date, limit: number): Promise<RolloutRow[]> {
  return (await db('rollouts')
    .whereNull('workflow_started_at')
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)) as RolloutRow[];
}
