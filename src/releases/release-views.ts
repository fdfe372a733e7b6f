import { versionSummary } from '../deployments/version-change';
import type { DecisionRow, ReleaseRow } from './release-repository';
import type { BreakGlassGrant } from '../governance/governance-verdict';
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
    // What an approver decides, current -> proposed, downgrades flagged (empty for releases recorded before).
    ...versionSummary(row.versions ?? []),
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

/** The controller's word on the release's commit: the latest report at that revision, never an older one's. */
export interface ControllerProgress {
  service: string;
  syncStatus: string | null;
  healthStatus: string | null;
  reportedAt: string | null;
}

/**
 * The sync the detail shows: while the release waits for the controller, its latest report at the release's commit
 * (`Synced/Progressing` before the verdict); once decided, the verdict the release recorded.
 */
function syncOf(row: ReleaseRow, latest: ControllerProgress | null) {
  if (row.sync_status !== null || !latest) {
    return { status: row.sync_status, health: row.health_status, service: null, reportedAt: null };
  }
  return {
    status: latest.syncStatus,
    health: latest.healthStatus,
    service: latest.service,
    reportedAt: latest.reportedAt,
  };
}

/** The detail: validation results (deprecation warnings included), policy results, approvals and links. */
export function releaseDetail(
  row: ReleaseRow,
  projectSlug: string,
  decisions: DecisionRow[],
  links: ReleaseLinks,
  latest: ControllerProgress | null = null,
) {
  const policies = (row.approval_policies ?? []) as unknown as ApprovalPolicySnapshot[];
  const approvedBy = decisions.filter((d) => d.decision === 'approve');
  const breakGlass = row.break_glass as BreakGlassGrant | null;
  return {
    ...releaseSummary(row, projectSlug),
    sync: syncOf(row, latest),
    breakGlass,
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
      /** The break-glass session that let the release through without these approvals (null: none did). */
      bypassedBy: breakGlass && policies.length > 0 ? breakGlass : null,
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
