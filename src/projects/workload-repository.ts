import type { Knex } from 'knex';
import type { StatementSink } from '../db/statement-batch';
import type { Queryable } from '../db/knex';
import { insertOne, timestampsOf } from '../db/owned-rows';
import { refuseAtLimit, type RowLimit } from '../db/row-limit';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';
import type { DependencyNode } from './workload-order';
import type { WorkloadOverrides, WorkloadSpec } from './workload-spec';

export interface Workload extends WorkloadSpec {
  id: string;
  name: string;
  overrides: WorkloadOverrides;
  /** Workloads of the project this one is committed and waited after (service order, src/projects/workload-order.ts). */
  dependsOn: string[];
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  name: string;
  spec: WorkloadSpec;
  overrides: WorkloadOverrides;
  depends_on: string[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'name', 'spec', 'overrides', 'depends_on', 'created_at', 'updated_at'] as const;

/** Checked on create (docs/operations.md "Limits"); the delivery generator, releases and health read every workload. */
export const WORKLOADS_PER_PROJECT: RowLimit = {
  max: 1000,
  message: 'a project holds at most 1000 workloads (limit "workloads per project")',
};

function rowToWorkload(row: Row): Workload {
  return {
    id: row.id,
    name: row.name,
    ...row.spec,
    overrides: row.overrides,
    dependsOn: row.depends_on,
    ...timestampsOf(row),
  };
}

/** The project's workloads by name, or only those `names` lists (a release reads what it changes, issue 46). */
export function workloadRows(db: Queryable, projectId: string, names?: readonly string[]): RowsQuery<Workload> {
  const query = db('workloads').where({ project_id: projectId });
  if (names) void query.whereIn('name', [...names]);
  return rowsQuery<Row, Workload>(query.orderBy('name').select(COLUMNS), ['created_at', 'updated_at'], rowToWorkload);
}

export function listWorkloads(db: Queryable, projectId: string, names?: readonly string[]): Promise<Workload[]> {
  return readRows(workloadRows(db, projectId, names));
}

/** 409 naming the limit when the project already holds as many workloads as it may. */
export function refuseWorkloadPastLimit(db: Queryable, projectId: string): Promise<void> {
  return refuseAtLimit(db('workloads').where({ project_id: projectId }), WORKLOADS_PER_PROJECT);
}

/** `forUpdate` locks the row until the transaction ends (overrides are read, changed and written back). */
export async function findWorkload(db: Queryable, projectId: string, name: string, forUpdate = false) {
  const query = db('workloads').where({ project_id: projectId, name }).first(COLUMNS);
  const row = (await (forUpdate ? query.forUpdate() : query)) as Row | undefined;
  return row ? rowToWorkload(row) : null;
}

export async function insertWorkload(
  db: Queryable,
  ids: { organizationId: string; projectId: string },
  input: { name: string; spec: WorkloadSpec; overrides: WorkloadOverrides; dependsOn: string[] },
): Promise<void> {
  await insertOne(
    db('workloads')
      .insert({
        organization_id: ids.organizationId,
        project_id: ids.projectId,
        name: input.name,
        spec: JSON.stringify(input.spec),
        overrides: JSON.stringify(input.overrides),
        depends_on: input.dependsOn,
      })
      .returning('id'),
    'a workload with this name already exists',
  );
}

export async function updateWorkload(
  db: Queryable,
  id: string,
  changes: { spec?: WorkloadSpec; overrides?: WorkloadOverrides; dependsOn?: string[] },
): Promise<void> {
  await db('workloads')
    .where({ id })
    .update({
      ...(changes.spec ? { spec: JSON.stringify(changes.spec) } : {}),
      ...(changes.overrides ? { overrides: JSON.stringify(changes.overrides) } : {}),
      ...(changes.dependsOn ? { depends_on: changes.dependsOn } : {}),
      updated_at: db.fn.now(),
    });
}

/** Sets a workload's overrides in `sink`'s batch (a commit pass's, for a row its transaction holds locked). */
export function updateOverridesIn(sink: StatementSink, id: string, overrides: WorkloadOverrides): void {
  sink.add('UPDATE workloads SET overrides = ?::jsonb, updated_at = CURRENT_TIMESTAMP WHERE id = ?::uuid', [
    JSON.stringify(overrides),
    id,
  ]);
}

/**
 * Every workload's name and dependencies, the rows locked until the transaction ends: two changes racing cannot
 * each add half of a cycle.
 */
export async function lockDependencyGraph(db: Queryable, projectId: string): Promise<DependencyNode[]> {
  return dependencyGraph(db, projectId, true);
}

/**
 * Every workload's name and dependencies (the order a release or promotion commits in), as a select to run alone or
 * with others (`readTogether`: a release's prepare step reads it with its project).
 */
export function dependencyRows(db: Queryable, projectId: string): RowsQuery<DependencyNode> {
  const query = db('workloads').where({ project_id: projectId }).orderBy('name').select('name', 'depends_on');
  return rowsQuery(query, [], (r: { name: string; depends_on: string[] }) => ({
    name: r.name,
    dependsOn: r.depends_on,
  }));
}

/** dependencyRows read alone, locked on request. */
export async function dependencyGraph(db: Queryable, projectId: string, lock = false): Promise<DependencyNode[]> {
  const rows = dependencyRows(db, projectId);
  if (lock) void rows.query.forUpdate();
  return readRows(rows);
}

export async function deleteWorkload(db: Queryable, id: string): Promise<void> {
  await db('workloads').where({ id }).delete();
}

/** Workloads (of any organization) whose image repository is one of these, for the inbound image webhook. */
export function workloadsUsingImage(db: Queryable, repositories: string[]): Knex.QueryBuilder {
  return db('workloads').whereRaw(`spec->'image'->>'repository' = ANY(?)`, [repositories]);
}

/** The workloads of every organization whose image is one of `repositories`, as a RowsQuery. */
export function workloadsUsingImageRows(
  db: Queryable,
  repositories: string[],
): RowsQuery<{ organizationId: string; projectId: string; name: string }> {
  return rowsQuery(
    workloadsUsingImage(db, repositories).select('organization_id', 'project_id', 'name'),
    [],
    (r: { organization_id: string; project_id: string; name: string }) => ({
      organizationId: r.organization_id,
      projectId: r.project_id,
      name: r.name,
    }),
  );
}
