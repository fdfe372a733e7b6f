import { versionSummary } from '../deployments/version-change';
import type { PromotionApprovalRow, PromotionRow } from './promotion-repository';
import type { Move } from './promotion-workflow-contract';

export interface PromotionLinks {
  /** The workflow in the Temporal Web UI (null when no UI is known). */
  workflow: string | null;
  history: string;
}

/** Per tenant and service, what the target runs now and after (current -> proposed), downgrades flagged. */
export function promotionVersions(moves: Move[]) {
  return versionSummary(
    moves.flatMap((m) =>
      m.changes.map((c) => ({
        tenant: m.tenant,
        workload: c.workload,
        from: m.previous?.find((p) => p.workload === c.workload)?.tag ?? null,
        to: c.tag ?? '',
      })),
    ),
  );
}

export function promotionSummary(row: PromotionRow, projectSlug: string) {
  return {
    id: row.id,
    project: projectSlug,
    projectId: row.project_id,
    sourceEnvironment: row.source_environment,
    targetEnvironment: row.target_environment,
    moves: row.moves,
    ...promotionVersions(row.moves),
    status: row.status,
    statusReason: row.status_reason,
    causes: row.causes,
    commitSha: row.commit_sha,
    sync: row.sync,
    breakGlass: row.break_glass,
    workflowId: row.workflow_id,
    createdBy: row.created_by_actor,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    committedAt: row.committed_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

export function promotionDetail(
  row: PromotionRow,
  projectSlug: string,
  approvals: PromotionApprovalRow[],
  links: PromotionLinks,
) {
  const policies = (row.approval_policies ?? []) as { id: string; name: string; requiredApprovals: number }[];
  return {
    ...promotionSummary(row, projectSlug),
    approvals: {
      required: policies.map((p) => ({ policyId: p.id, name: p.name, requiredApprovals: p.requiredApprovals })),
      received: approvals.map((a) => ({
        userId: a.user_id,
        actor: a.actor,
        comment: a.comment,
        at: a.created_at.toISOString(),
      })),
    },
    links,
  };
}
