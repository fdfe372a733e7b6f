import type { DecisionRow, ReleaseRow } from './release-repository';
import type { ApprovalPolicySnapshot } from './release-workflow-contract';

export interface ReleaseLinks {
  /** The workflow in the Temporal Web UI (null when TEMPORAL_UI_URL is unset). */
  workflow: string | null;
  history: string;
}

/** The list item: status and outcome, without the validation results (the detail has them). */
export function releaseSummary(row: ReleaseRow, projectSlug: string) {
  const validation = row.validation as { summary?: unknown } | null;
  return {
    id: row.id,
    kind: row.kind,
    rollbackOf: row.rollback_of,
    project: projectSlug,
    projectId: row.project_id,
    tenantId: row.tenant_id,
    tenant: row.tenant_slug,
    environment: row.environment,
    title: row.title,
    changes: row.changes,
    status: row.status,
    statusReason: row.status_reason,
    waitingBehind: row.waiting_behind,
    validationSummary: validation?.summary ?? null,
    commitSha: row.commit_sha,
    sync: { status: row.sync_status, health: row.health_status },
    workflowId: row.workflow_id,
    createdBy: row.created_by_actor,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    committedAt: row.committed_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/** The detail: validation results (deprecation warnings included), policy results, approvals and links. */
export function releaseDetail(row: ReleaseRow, projectSlug: string, decisions: DecisionRow[], links: ReleaseLinks) {
  const policies = (row.approval_policies ?? []) as unknown as ApprovalPolicySnapshot[];
  const approvedBy = decisions.filter((d) => d.decision === 'approve');
  return {
    ...releaseSummary(row, projectSlug),
    validation: row.validation,
    policies: row.policy_results,
    approvals: {
      required: policies.map((p) => ({
        policyId: p.id,
        name: p.name,
        requiredApprovals: p.requiredApprovals,
        allowSelfApproval: p.allowSelfApproval,
      })),
      // Whether they sufficed is the workflow's decision (eligibility by role and team at approval time).
      received: approvedBy.length,
      decisions: decisions.map((d) => ({
        userId: d.user_id,
        actor: d.actor,
        decision: d.decision,
        comment: d.comment,
        at: d.created_at.toISOString(),
      })),
    },
    links,
  };
}
