import type { Queryable } from '../db/knex';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';
import type { PlanWave, RolloutPlan } from './rollout-plan';

interface PlanRow {
  id: string;
  environment: string;
  waves: PlanWave[];
  rollback_on_halt: boolean;
  lift_pins_when_verified_upstream: boolean;
  created_at: Date;
  updated_at: Date;
}

export type StoredPlan = RolloutPlan & { id: string; createdAt: string; updatedAt: string };

const COLUMNS = [
  'id',
  'environment',
  'waves',
  'rollback_on_halt',
  'lift_pins_when_verified_upstream',
  'created_at',
  'updated_at',
] as const;

function rowToPlan(row: PlanRow): StoredPlan {
  return {
    id: row.id,
    environment: row.environment,
    waves: row.waves,
    rollbackOnHalt: row.rollback_on_halt,
    liftPinsWhenVerifiedUpstream: row.lift_pins_when_verified_upstream,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function findRolloutPlan(
  db: Queryable,
  organizationId: string,
  projectId: string,
  environment: string,
): Promise<StoredPlan | null> {
  const row = (await db('rollout_plans')
    .where({ organization_id: organizationId, project_id: projectId, environment })
    .first(COLUMNS)) as PlanRow | undefined;
  return row ? rowToPlan(row) : null;
}

/** The project's plans by environment, as a RowsQuery (an image update reads them with its other rows). */
export function rolloutPlanRows(db: Queryable, organizationId: string, projectId: string): RowsQuery<StoredPlan> {
  const query = db('rollout_plans')
    .where({ organization_id: organizationId, project_id: projectId })
    .orderBy('environment')
    .select(COLUMNS);
  return rowsQuery<PlanRow, StoredPlan>(query, ['created_at', 'updated_at'], rowToPlan);
}

export function listRolloutPlans(db: Queryable, organizationId: string, projectId: string) {
  return readRows(rolloutPlanRows(db, organizationId, projectId));
}

/** Inserts or replaces the plan of one environment; `created` tells which. */
export async function upsertRolloutPlan(
  db: Queryable,
  organizationId: string,
  projectId: string,
  plan: RolloutPlan,
): Promise<{ plan: StoredPlan; created: boolean }> {
  const values = {
    waves: JSON.stringify(plan.waves),
    rollback_on_halt: plan.rollbackOnHalt,
    lift_pins_when_verified_upstream: plan.liftPinsWhenVerifiedUpstream,
  };
  const rows = (await db('rollout_plans')
    .insert({ organization_id: organizationId, project_id: projectId, environment: plan.environment, ...values })
    .onConflict(['project_id', 'environment'])
    .merge({ ...values, updated_at: db.fn.now() })
    .returning([...COLUMNS, db.raw('(xmax = 0) as created')])) as (PlanRow & { created: boolean })[];
  const row = rows[0] as PlanRow & { created: boolean };
  return { plan: rowToPlan(row), created: row.created };
}

export async function deleteRolloutPlan(
  db: Queryable,
  organizationId: string,
  projectId: string,
  environment: string,
): Promise<StoredPlan | null> {
  const rows = (await db('rollout_plans')
    .where({ organization_id: organizationId, project_id: projectId, environment })
    .delete()
    .returning(COLUMNS)) as PlanRow[];
  return rows[0] ? rowToPlan(rows[0]) : null;
}
