import type { ReleaseVersion } from './release-versions';
import type { Queryable, Tx } from '../db/knex';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { containsElement, type UsageScope } from '../projects/usage-scope';
import type { WorkloadChange } from '../projects/workload-spec';
import { FINAL_STATUSES, HOLDING_STATUSES, type ReleaseStatus } from './release-workflow-contract';
import { takeAdvisoryLock } from '../db/advisory-lock';
import { rowsQuery, type RowsQuery } from '../db/rows-together';

export type ReleaseKind = 'release' | 'rollback';

export interface ReleaseRow {
  id: string;
  kind: ReleaseKind;
  /** The release a rollback restores. */
  rollback_of: string | null;
  sort_key: string;
  organization_id: string;
  project_id: string;
  tenant_id: string;
  tenant_slug: string;
  environment: string;
  title: string;
  changes: WorkloadChange[];
  status: ReleaseStatus;
  status_reason: string | null;
  waiting_behind: string | null;
  validation: Record<string, unknown> | null;
  policy_results: Record<string, unknown> | null;
  approval_policies: Record<string, unknown>[] | null;
  /** The break-glass session the release's workflow bypassed approvals and freezes under (a BreakGlassGrant). */
  break_glass: Record<string, unknown> | null;
  /** What it moves, current -> proposed, recorded at creation (null: created before issue 50 recorded it). */
  versions: ReleaseVersion[] | null;
  commit_sha: string | null;
  sync_status: string | null;
  health_status: string | null;
  workflow_id: string;
  workflow_started_at: Date | null;
  created_by: string | null;
  created_by_actor: string;
  idempotency_key: string | null;
  request_hash: string | null;
  queued_at: Date | null;
  committed_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DecisionRow {
  id: string;
  release_id: string;
  user_id: string | null;
  actor: string;
  decision: 'approve' | 'reject';
  comment: string | null;
  created_at: Date;
}

export type NewRelease = Pick<
  ReleaseRow,
  | 'id'
  | 'organization_id'
  | 'project_id'
  | 'tenant_id'
  | 'tenant_slug'
  | 'environment'
  | 'title'
  | 'changes'
  | 'workflow_id'
  | 'created_by'
  | 'created_by_actor'
  | 'idempotency_key'
  | 'request_hash'
  | 'kind'
  | 'rollback_of'
> & { versions: ReleaseVersion[] };

export async function insertRelease(trx: Tx, release: NewRelease): Promise<ReleaseRow> {
  const [row] = (await trx('releases')
    .insert({
      ...release,
      changes: JSON.stringify(release.changes),
      versions: JSON.stringify(release.versions),
      status: 'Validating',
    })
    .returning('*')) as ReleaseRow[];
  return row!;
}

export async function findRelease(db: Queryable, organizationId: string, id: string): Promise<ReleaseRow | null> {
  return ((await db('releases').where({ organization_id: organizationId, id }).first()) as ReleaseRow) ?? null;
}

export async function findReleaseByKey(db: Queryable, organizationId: string, key: string) {
  return (
    ((await db('releases').where({ organization_id: organizationId, idempotency_key: key }).first()) as
      ReleaseRow | undefined) ?? null
  );
}

/** The row, locked for the rest of the transaction (a workflow activity's read-check-write). */
export async function lockRelease(trx: Tx, id: string): Promise<ReleaseRow | null> {
  return ((await trx('releases').where({ id }).forUpdate().first()) as ReleaseRow | undefined) ?? null;
}

export type ReleaseChanges = Partial<
  Pick<
    ReleaseRow,
    | 'status'
    | 'status_reason'
    | 'waiting_behind'
    | 'commit_sha'
    | 'sync_status'
    | 'health_status'
    | 'queued_at'
    | 'committed_at'
    | 'finished_at'
  >
> & { validation?: unknown; policy_results?: unknown; approval_policies?: unknown; break_glass?: unknown };

export async function updateRelease(db: Queryable, id: string, changes: ReleaseChanges): Promise<void> {
  const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  await db('releases')
    .where({ id })
    .update({
      ...changes,
      validation: json(changes.validation),
      policy_results: json(changes.policy_results),
      approval_policies: json(changes.approval_policies),
      break_glass: json(changes.break_glass),
      updated_at: db.fn.now(),
    });
}

export async function markReleaseWorkflowStarted(db: Queryable, id: string): Promise<void> {
  await db('releases').where({ id }).whereNull('workflow_started_at').update({ workflow_started_at: db.fn.now() });
}

/** Rows committed more than `olderThan` ago whose workflow was never recorded as started. */
export async function listUnstartedReleases(db: Queryable, olderThan: Date, limit: number): Promise<ReleaseRow[]> {
  return (await db('releases')
    .whereNull('workflow_started_at')
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)) as ReleaseRow[];
}

export interface ReleaseFilter {
  environment?: string;
  tenantId?: string;
  status?: ReleaseStatus;
  createdAfter?: string;
  createdBefore?: string;
}

/** Releases of one project, newest first. */
export function listReleases(
  db: Queryable,
  organizationId: string,
  projectId: string,
  filter: ReleaseFilter,
  page: PageRequest,
): Promise<Page<ReleaseRow>> {
  const query = db('releases').where({ organization_id: organizationId, project_id: projectId });
  if (filter.environment) void query.where('environment', filter.environment);
  if (filter.tenantId) void query.where('tenant_id', filter.tenantId);
  if (filter.status) void query.where('status', filter.status);
  if (filter.createdAfter) void query.where('created_at', '>=', filter.createdAfter);
  if (filter.createdBefore) void query.where('created_at', '<', filter.createdBefore);
  return keysetPage<ReleaseRow, ReleaseRow>(
    query.select('*'),
    ['sort_key', 'id'],
    page,
    (r) => [r.sort_key, r.id],
    (r) => r,
    'desc',
  );
}

/** Records one person's decision; false when they had already decided (a retried activity finds its own row). */
export async function insertDecision(
  trx: Tx,
  decision: Omit<DecisionRow, 'id' | 'created_at'> & { organization_id: string },
): Promise<boolean> {
  const rows = (await trx('release_approvals')
    .insert(decision)
    .onConflict(['release_id', 'user_id'])
    .ignore()
    .returning('id')) as { id: string }[];
  return rows.length > 0;
}

export async function listDecisions(db: Queryable, releaseId: string): Promise<DecisionRow[]> {
  return (await db('release_approvals')
    .where({ release_id: releaseId })
    .orderBy('created_at')
    .select('id', 'release_id', 'user_id', 'actor', 'decision', 'comment', 'created_at')) as DecisionRow[];
}

/**
 * Serializes the turn-taking of one target (project, tenant, environment) for the rest of the transaction, across
 * processes.
 */
export async function lockTarget(trx: Tx, row: Pick<ReleaseRow, 'project_id' | 'tenant_id' | 'environment'>) {
  await takeAdvisoryLock(trx, `release-target:${row.project_id}:${row.tenant_id}:${row.environment}`);
}

/** The releases of a target holding it or waiting for it: holders first, then the queue in order. */
export type LineEntry = Pick<ReleaseRow, 'id' | 'status' | 'queued_at' | 'title' | 'workflow_id'>;

export async function targetLine(
  db: Queryable,
  row: Pick<ReleaseRow, 'project_id' | 'tenant_id' | 'environment'>,
): Promise<LineEntry[]> {
  return (await db('releases')
    .where({ project_id: row.project_id, tenant_id: row.tenant_id, environment: row.environment })
    .whereIn('status', [...HOLDING_STATUSES, 'Queued'])
    .orderByRaw("CASE WHEN status = 'Queued' THEN 1 ELSE 0 END, queued_at, id")
    .select('id', 'status', 'queued_at', 'title', 'workflow_id')) as LineEntry[];
}

/**
 * The latest earlier release of the same target that was checked against the manifest policies: its id and the rules
 * that failed on it (what a release's prepare step reads with its project, `readTogether`).
 */
export function previousCheckedRows(
  db: Queryable,
  row: ReleaseRow,
): RowsQuery<Pick<ReleaseRow, 'id' | 'policy_results'>> {
  const query = db('releases')
    .where({ project_id: row.project_id, tenant_id: row.tenant_id, environment: row.environment })
    .where('sort_key', '<', row.sort_key)
    .whereNotNull('policy_results')
    .orderBy('sort_key', 'desc')
    .limit(1)
    .select('id', 'policy_results');
  return rowsQuery(query, [], (r: Pick<ReleaseRow, 'id' | 'policy_results'>) => r);
}

/** The latest release of a target that was deployed (committed, or failed on the way): what the target runs. */
export async function latestDeployedRelease(
  db: Queryable,
  target: Pick<ReleaseRow, 'project_id' | 'tenant_id' | 'environment'>,
): Promise<ReleaseRow | null> {
  return (
    ((await db('releases')
      .where({ project_id: target.project_id, tenant_id: target.tenant_id, environment: target.environment })
      .where((q) => q.whereNotNull('commit_sha').orWhere('status', 'Failed'))
      .orderBy('sort_key', 'desc')
      .first()) as ReleaseRow | undefined) ?? null
  );
}

/** Releases deploying to the given tenants of an environment right now (Deploying or Syncing). */
export async function holdingReleases(
  db: Queryable,
  projectId: string,
  environment: string,
  tenantIds: string[],
): Promise<Pick<ReleaseRow, 'id' | 'tenant_slug' | 'status'>[]> {
  return (await db('releases')
    .where({ project_id: projectId, environment })
    .whereIn('tenant_id', tenantIds)
    .whereIn('status', HOLDING_STATUSES)
    .select('id', 'tenant_slug', 'status')) as Pick<ReleaseRow, 'id' | 'tenant_slug' | 'status'>[];
}

/** A rollback of the target that has not ended (at most one may run: a second would re-deploy what it undoes). */
export async function unfinishedRollback(
  db: Queryable,
  target: Pick<ReleaseRow, 'project_id' | 'tenant_id' | 'environment'>,
): Promise<Pick<ReleaseRow, 'id' | 'status'> | null> {
  return (
    ((await db('releases')
      .where({ project_id: target.project_id, tenant_id: target.tenant_id, environment: target.environment })
      .where({ kind: 'rollback' })
      .whereNotIn('status', [...FINAL_STATUSES])
      .first('id', 'status')) as Pick<ReleaseRow, 'id' | 'status'> | undefined) ?? null
  );
}

/** The releases of one target, newest first (bounded: a rollback looks back this far). */
export async function targetHistory(
  db: Queryable,
  target: Pick<ReleaseRow, 'project_id' | 'tenant_id' | 'environment'>,
  limit = 200,
): Promise<ReleaseRow[]> {
  return (await db('releases')
    .where({ project_id: target.project_id, tenant_id: target.tenant_id, environment: target.environment })
    .orderBy('sort_key', 'desc')
    .limit(limit)) as ReleaseRow[];
}

/** Releases of a project within `scope` that have not ended (what a removal would strand). */
export async function unfinishedReleaseIds(db: Queryable, projectId: string, scope: UsageScope): Promise<string[]> {
  const q = db('releases')
    .where({ project_id: projectId })
    .whereNotIn('status', [...FINAL_STATUSES]);
  if (scope.environments) void q.whereIn('environment', scope.environments);
  if (scope.tenantIds) void q.whereIn('tenant_id', scope.tenantIds);
  if (scope.workload) containsElement(q, 'changes', { workload: scope.workload });
  const rows = (await q.orderBy('created_at').select('id')) as { id: string }[];
  return rows.map((r) => r.id);
}

/** Releases' kinds and request times as a derived table, for another module's raw SQL to join (table ownership). */
export const RELEASE_KINDS_SQL = '(SELECT id, project_id, kind, created_at FROM releases)';

/** The kind and title of some releases of an organization (the deployments history names a rollback and its reason). */
export async function releaseKinds(
  db: Queryable,
  organizationId: string,
  ids: string[],
): Promise<Map<string, { kind: ReleaseKind; title: string }>> {
  if (ids.length === 0) return new Map();
  const rows = (await db('releases')
    .where({ organization_id: organizationId })
    .whereIn('id', ids)
    .select('id', 'kind', 'title')) as { id: string; kind: ReleaseKind; title: string }[];
  return new Map(rows.map((r) => [r.id, { kind: r.kind, title: r.title }]));
}
