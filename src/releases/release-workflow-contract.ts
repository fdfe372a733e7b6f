/**
 * The release workflow (workflows/release.ts): one workflow `release-<id>` per release, human actions and sync
 * reports as Updates. Imported by workflow code, so it stays free of Node built-ins and I/O.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AuditActor } from '../audit/types';
import type { SyncReport } from '../deployments/sync-report';
import type { BreakGlassGrant, FreezeHit } from '../governance/governance-verdict';
import type { CommitGroup } from '../projects/workload-order';
import type { WorkloadChange } from '../projects/workload-spec';

/**
 * `release-<project>-<tenant>-<environment>-<id>` for a new release (`rollback-...` for a rollback), readable in the
 * Temporal UI's list (issue 50); `release-<id>` without the names: releases started before, and the fallback of
 * histories recorded then. The id is stored in the row (`workflow_id`) and always read from there, never derived again.
 */
export function releaseWorkflowId(
  releaseId: string,
  where?: { project: string; tenant: string; environment: string; kind?: 'release' | 'rollback' },
): string {
  if (!where) return `release-${releaseId}`;
  return `${where.kind ?? 'release'}-${where.project}-${where.tenant}-${where.environment}-${releaseId}`;
}

export const RELEASE_STATUSES = [
  'Validating',
  'Blocked',
  'PendingApproval',
  'AwaitingDeploy',
  'Queued',
  'Deploying',
  'Syncing',
  'Healthy',
  'Failed',
  'Rejected',
  'Cancelled',
  'Expired',
] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

export const FINAL_STATUSES: readonly ReleaseStatus[] = [
  'Blocked',
  'Healthy',
  'Failed',
  'Rejected',
  'Cancelled',
  'Expired',
];
/** Statuses in which a release holds its target: at most one release of a target is in one of them. */
export const HOLDING_STATUSES: readonly ReleaseStatus[] = ['Deploying', 'Syncing'];
/** Statuses a cancel may still end: nothing has been committed yet. */
export const CANCELLABLE_STATUSES: readonly ReleaseStatus[] = [
  'Validating',
  'PendingApproval',
  'AwaitingDeploy',
  'Queued',
];

export interface ReleaseTiming {
  /** How long a committed release waits for a sync report before it ends Failed. */
  syncTimeoutMs: number;
  /** How often a queued release looks at its target again (the release ahead signals it; this covers a lost one). */
  queuePollMs: number;
  /** How long its commit waits out a Git storage outage (GIT_COMMIT_PATIENCE; absent in older inputs: the default). */
  commitPatienceMs?: number;
}

export interface ReleaseWorkflowInput {
  releaseId: string;
  organizationId: string;
  projectId: string;
  tenantId: string;
  environment: string;
  /** Who created the release: no approval of theirs counts when the policy forbids self-approval. */
  requester: AuditActor;
  /** The `git` task queue (with the deployment's prefix) the commit workflow runs on. */
  gitTaskQueue: string;
  timing: ReleaseTiming;
  /** Set when a long wait continued as new: where the next run picks up (workflows/lib/wait-until-clear.ts). */
  resume?: ReleaseResume;
}

/** What a release carries over continue-as-new while it waits in front of a freeze or in its target's queue. */
export interface ReleaseResume {
  stage: 'frozen' | 'queued';
  prepared: PreparedRelease;
  deployer: AuditActor;
  approvals: ApproverProfile[];
  decidedBy: string[];
  /** The fallback re-check interval reached so far (it backs off). */
  recheckMs: number;
}

/** Approval policies and approvers as the workflow decides on them (src/approval-policies/approval-decision.ts). */
export type { ApprovalPolicySnapshot, Approver as ApproverProfile } from '../approval-policies/approval-decision';
import type { ApprovalPolicySnapshot, Approver as ApproverProfile } from '../approval-policies/approval-decision';
import { workflowType } from '../temporal/workflow-type';

/** What the prepare activity decided (validation, policies, approval requirement) for the workflow to act on. */
export interface PreparedRelease {
  blocked: boolean;
  /** Why it is blocked: validation errors, deprecations under `block`, or an enforce policy rule. */
  blockReason: string | null;
  /** Digest of the target's rendered files that were validated (the commit refuses a different tree). */
  digest: string;
  approvalPolicies: ApprovalPolicySnapshot[];
  autoDeploy: boolean;
  /** The release's changes, checked against the project's workloads. */
  changes: WorkloadChange[];
  tenantSlug: string;
  projectSlug: string;
  /**
   * The changes in service order, committed and waited Synced and Healthy group by group (absent or empty: one
   * commit of `changes`; older histories hold none).
   */
  groups?: CommitGroup<WorkloadChange>[];
  /**
   * The requester's break-glass session covering the target, when one was open at validation: approval waits are
   * bypassed and the commit's audit entry carries it.
   */
  breakGlass?: BreakGlassGrant | null;
  /**
   * The freeze check and the target's turn, taken in the same transaction when the prepare step was asked for them
   * (`turnFor`) and nothing waits before them: not blocked, no approval, auto-deploy (issue 46). Read by the run that
   * prepared only: a run continued as new carries it stale.
   */
  turn?: ReleaseFreezeAndTurn;
}

/** The freezes holding a release's commit back, and when the last of them ends (null: not known to end). */
export interface ReleaseFreezeCheck {
  freezes: FreezeHit[];
  reason: string | null;
  clearsAt: number | null;
}

/** The target's turn: taken, or the release queued behind another. */
export interface ReleaseTurn {
  acquired: boolean;
  behind: string | null;
  behindTitle?: string | null;
}

/** The freeze check and, when no freeze holds the release, its target's turn, in one activity (turn null: frozen). */
export interface ReleaseFreezeAndTurn {
  freeze: ReleaseFreezeCheck;
  turn: ReleaseTurn | null;
}

export interface ReleaseActionResult {
  status: ReleaseStatus;
}

export interface ApproveReleaseRequest {
  approver: ApproverProfile;
  actor: AuditActor;
  comment?: string;
}
export interface RejectReleaseRequest {
  approver: ApproverProfile;
  actor: AuditActor;
  comment: string;
}
export interface DeployReleaseRequest {
  actor: AuditActor;
}
export interface CancelReleaseRequest {
  actor: AuditActor;
  reason?: string;
}

export const approveReleaseUpdate = defineUpdate<ReleaseActionResult, [ApproveReleaseRequest]>('approveRelease');
export const rejectReleaseUpdate = defineUpdate<ReleaseActionResult, [RejectReleaseRequest]>('rejectRelease');
export const deployReleaseUpdate = defineUpdate<ReleaseActionResult, [DeployReleaseRequest]>('deployRelease');
export const cancelReleaseUpdate = defineUpdate<ReleaseActionResult, [CancelReleaseRequest]>('cancelRelease');
export const reportSyncUpdate = defineUpdate<ReleaseActionResult, [SyncReport]>('reportSync');
/** Sent by the release that freed the target to the next one in line. */
export const targetFreedSignal = defineSignal('targetFreed');
export const releaseStateQuery = defineQuery<{ status: ReleaseStatus; approvals: number; commitSha: string | null }>(
  'releaseState',
);

/**
 * ApplicationFailure types of refused release actions: the reason travels in the type and the API maps each to one
 * HTTP answer (release-errors.ts).
 */
export const RELEASE_FAILURE = {
  finished: 'ReleaseFinished',
  selfApproval: 'SelfApprovalRefused',
  alreadyDecided: 'AlreadyDecided',
  notEligible: 'NotEligibleApprover',
  notAwaitingApproval: 'NotAwaitingApproval',
  notAwaitingDeploy: 'NotAwaitingDeploy',
  notCancellable: 'NotCancellable',
  notSyncing: 'NotSyncing',
  revisionMismatch: 'RevisionMismatch',
} as const;

/** The release workflow (workflows/release.ts) by its registered type. */
export const releaseWorkflowType =
  workflowType<(input: ReleaseWorkflowInput) => Promise<{ status: ReleaseStatus }>>()('releaseWorkflow');
