import type { Queryable, Tx } from '../db/knex';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { containsElement, type UsageScope } from '../projects/usage-scope';
import { FINAL_PROMOTION_STATUSES, type Cause, type Move, type PromotionStatus } from './promotion-workflow-contract';

export interface PromotionRow {
  id: string;
  sort_key: string;
  organization_id: string;
  project_id: string;
  /** Null for a wave of an image rollout: it sets a tag, it takes no environment's versions. */
  source_environment: string | null;
  target_environment: string;
  moves: Move[];
  status: PromotionStatus;
  status_reason: string | null;
  causes: Cause[];
  approval_policies: Record<string, unknown>[] | null;
  break_glass: Record<string, unknown> | null;
  commit_sha: string | null;
  sync: Record<string, { syncStatus: string; healthStatus: string }>;
  workflow_id: string;
  workflow_started_at: Date | null;
  created_by: string | null;
  created_by_actor: string;
  committed_at: Date | null;
  finished_at: Date | null;
  /** A wave of an image rollout a newer one superseded: that rollout's id; the commit path refuses its commit. */
  superseded_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PromotionApprovalRow {
  id: string;
  promotion_id: string;
  user_id: string | null;
  actor: string;
  comment: string | null;
  created_at: Date;
}

export type NewPromotion = Pick<
  PromotionRow,
  | 'id'
  | 'organization_id'
  | 'project_id'
  | 'source_environment'
  | 'target_environment'
  | 'moves'
  | 'workflow_id'
  | 'created_by'
  | 'created_by_actor'
>;

export async function insertPromotion(trx: Tx, promotion: NewPromotion): Promise<PromotionRow> {
  const [row] = (await trx('promotions')
    .insert({ ...promotion, moves: JSON.stringify(promotion.moves), status: 'Evaluating' })
    .returning('*')) as PromotionRow[];
  return row!;
}

export async function findPromotion(db: Queryable, organizationId: string, id: string): Promise<PromotionRow | null> {
  return ((await db('promotions').where({ organization_id: organizationId, id }).first()) as PromotionRow) ?? null;
}

/** The row, locked for the rest of the transaction (a workflow activity's read-check-write). */
export async function lockPromotion(trx: Tx, id: string): Promise<PromotionRow | null> {
  return ((await trx('promotions').where({ id }).forUpdate().first()) as PromotionRow | undefined) ?? null;
}

export type PromotionChanges = Partial<
  Pick<PromotionRow, 'status' | 'status_reason' | 'commit_sha' | 'committed_at' | 'finished_at'>
> & { causes?: Cause[]; approval_policies?: unknown; break_glass?: unknown; sync?: unknown };

export async function updatePromotion(db: Queryable, id: string, changes: PromotionChanges): Promise<void> {
  const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  await db('promotions')
    .where({ id })
    .update({
      ...changes,
      causes: json(changes.causes),
      approval_policies: json(changes.approval_policies),
      break_glass: json(changes.break_glass),
      sync: json(changes.sync),
      updated_at: db.fn.now(),
    });
}

/**
 * The wave promotions of a superseded image rollout, in the transaction that records the superseding: from then on
 * the commit path refuses their commit (promotion-operation.ts), so none lands after the newer rollout's.
 */
export async function markPromotionsSuperseded(trx: Tx, ids: string[], by: string): Promise<void> {
  if (ids.length === 0) return;
  await trx('promotions').whereIn('id', ids).whereNull('superseded_by').update({ superseded_by: by });
}

export async function markPromotionWorkflowStarted(db: Queryable, id: string): Promise<void> {
  await db('promotions').where({ id }).whereNull('workflow_started_at').update({ workflow_started_at: db.fn.now() });
}

/** Rows committed more than `olderThan` ago whose workflow was never recorded as started. */
export async function listUnstartedPromotions(db: Queryable, olderThan: Date, limit: number): Promise<PromotionRow[]> {
  return (await db('promotions')
    .whereNull('workflow_started_at')
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)) as PromotionRow[];
}

/** Promotions of one project, newest first. */
export function listPromotions(
  db: Queryable,
  organizationId: string,
  projectId: string,
  filter: { status?: PromotionStatus; targetEnvironment?: string },
  page: PageRequest,
): Promise<Page<PromotionRow>> {
  const query = db('promotions').where({ organization_id: organizationId, project_id: projectId });
  if (filter.status) void query.where('status', filter.status);
  if (filter.targetEnvironment) void query.where('target_environment', filter.targetEnvironment);
  return keysetPage<PromotionRow, PromotionRow>(
    query.select('*'),
    ['sort_key', 'id'],
    page,
    (r) => [r.sort_key, r.id],
    (r) => r,
    'desc',
  );
}

/** The promotion of a project whose commit is `sha` (what a controller's sync report names). */
export async function findPromotionByCommit(
  db: Queryable,
  organizationId: string,
  projectId: string,
  sha: string,
): Promise<PromotionRow | null> {
  return (
    ((await db('promotions')
      .where({ organization_id: organizationId, project_id: projectId, commit_sha: sha })
      .first()) as PromotionRow | undefined) ?? null
  );
}

/** The promotions of a project into `environment` whose commit is made and whose sync is awaited. */
export async function syncingPromotions(
  db: Queryable,
  organizationId: string,
  projectId: string,
  environment: string,
): Promise<PromotionRow[]> {
  return (await db('promotions')
    .where({ organization_id: organizationId, project_id: projectId, target_environment: environment })
    .whereIn('status', ['Executing', 'Syncing'])
    .whereNotNull('commit_sha')) as PromotionRow[];
}

/** The Blocked promotions of a project that take versions from `environment`. */
export async function blockedPromotionsFrom(
  db: Queryable,
  organizationId: string,
  projectId: string,
  environment: string,
): Promise<PromotionRow[]> {
  return (await db('promotions').where({
    organization_id: organizationId,
    project_id: projectId,
    source_environment: environment,
    status: 'Blocked',
  })) as PromotionRow[];
}

/** Records one person's approval; false when they had already approved (a retried activity finds its own row). */
export async function insertPromotionApproval(
  trx: Tx,
  approval: Omit<PromotionApprovalRow, 'id' | 'created_at'> & { organization_id: string },
): Promise<boolean> {
  const rows = (await trx('promotion_approvals')
    .insert(approval)
    .onConflict(['promotion_id', 'user_id'])
    .ignore()
    .returning('id')) as { id: string }[];
  return rows.length > 0;
}

export async function listPromotionApprovals(db: Queryable, promotionId: string): Promise<PromotionApprovalRow[]> {
  return (await db('promotion_approvals')
    .where({ promotion_id: promotionId })
    .orderBy('created_at')
    .select('id', 'promotion_id', 'user_id', 'actor', 'comment', 'created_at')) as PromotionApprovalRow[];
}

/** Promotions of a project within `scope` (from or into its environments) that have not ended. */
export async function unfinishedPromotionIds(db: Queryable, projectId: string, scope: UsageScope): Promise<string[]> {
  const q = db('promotions')
    .where({ project_id: projectId })
    .whereNotIn('status', [...FINAL_PROMOTION_STATUSES]);
  const { environments, tenantIds, workload } = scope;
  if (environments)
    void q.andWhere(
      (w) => void w.whereIn('target_environment', environments).orWhereIn('source_environment', environments),
    );
  if (tenantIds)
    void q.andWhere((w) => {
      for (const tenantId of tenantIds) void w.orWhere((o) => containsElement(o, 'moves', { tenantId }));
    });
  if (workload) containsElement(q, 'moves', { changes: [{ workload }] });
  const rows = (await q.orderBy('created_at').select('id')) as { id: string }[];
  return rows.map((r) => r.id);
}
