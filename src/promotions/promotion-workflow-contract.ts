/**
 * The promotion workflow (workflows/promotion.ts): one workflow per promotion (its id stored in the row), approvals,
 * cancel and sync reports as Updates. Imported by workflow code, so it stays free of Node built-ins and I/O.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AuditActor } from '../audit/types';
import type { BreakGlassGrant } from '../governance/governance-verdict';
import type { WorkloadChange } from '../projects/workload-spec';
import type { ApprovalPolicySnapshot, ApproverProfile } from '../releases/release-workflow-contract';
import type { SyncReport } from '../deployments/sync-report';
import { workflowType } from '../temporal/workflow-type';

/**
 * `promotion-<project>-<tenant>-<source>-to-<target>-<id>` for a new promotion (`<n>-tenants` when it moves several),
 * readable in the Temporal UI's list as releases are (issue 50); `promotion-<id>` for those started before. The id is
 * stored in the row (`workflow_id`) and always read from there, never derived again.
 */
export function promotionWorkflowId(
  promotionId: string,
  where?: { project: string; tenants: string[]; source: string; target: string },
): string {
  if (!where) return `promotion-${promotionId}`;
  const tenants = where.tenants.length === 1 ? where.tenants[0]! : `${where.tenants.length}-tenants`;
  return `promotion-${where.project}-${tenants}-${where.source}-to-${where.target}-${promotionId}`;
}

export const PROMOTION_STATUSES = [
  'Evaluating',
  'Blocked',
  'Executing',
  'Syncing',
  'Healthy',
  'Failed',
  'Expired',
  'Cancelled',
] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];
export const FINAL_PROMOTION_STATUSES: readonly PromotionStatus[] = ['Healthy', 'Failed', 'Expired', 'Cancelled'];

/**
 * The causes that block a promotion (each one that holds is listed, not only the first): the spec's five, and
 * `sourceUnverified` (a version not verified in the source environment, docs/promotions.md).
 */
export const BLOCK_CAUSES = [
  'freeze',
  'approvals',
  'policy',
  'sourceUnhealthy',
  'sourceUnverified',
  'targetBusy',
] as const;
export type BlockCause = (typeof BLOCK_CAUSES)[number];
export interface Cause {
  cause: BlockCause;
  message: string;
  details?: Record<string, unknown>;
}

/** What moves to one tenant of the target: the source's image tag per service that differs. */
export interface Move {
  tenant: string;
  tenantId: string;
  changes: WorkloadChange[];
  /** The target's tag of each changed service when requested (what it runs now; absent on older rows). */
  previous?: { workload: string; tag: string | null }[];
}

export interface PromotionTiming {
  /** How often a Blocked promotion evaluates again. */
  recheckMs: number;
  /** How long it may stay Blocked before it ends Expired. */
  expiryMs: number;
  /** How long a committed promotion waits for every tenant's healthy sync report. */
  syncTimeoutMs: number;
  /** How long its commit waits out a Git storage outage (GIT_COMMIT_PATIENCE; absent in older inputs: the default). */
  commitPatienceMs?: number;
}

export interface PromotionWorkflowInput {
  promotionId: string;
  organizationId: string;
  projectId: string;
  requester: AuditActor;
  gitTaskQueue: string;
  timing: PromotionTiming;
  /** Set when a long Blocked wait continued as new: what the next run carries on with. */
  resume?: PromotionResume;
}

/** What a Blocked promotion carries over continue-as-new (workflows/lib/wait-until-clear.ts). */
export interface PromotionResume {
  /** When it ends Expired, epoch ms (fixed at the first run's start). */
  expiresAt: number;
  approvers: ApproverProfile[];
  /** Evaluations that reached a commit attempt so far (the commit's idempotency key counts them). */
  evaluations: number;
  /** The fallback re-check interval reached so far (it backs off). */
  recheckMs: number;
}

/** One evaluation of the causes (activity evaluatePromotion). */
export interface Evaluation {
  causes: Cause[];
  /** When a cause is known to clear by itself (the end of the freeze that blocks it), epoch ms. */
  clearsAt: number | null;
  /** Digest of the target tenants' rendered files with the moves applied (the commit refuses another tree). */
  digest: string;
  breakGlass: BreakGlassGrant | null;
  /** The approval policies covering the target (snapshot taken at the first evaluation). */
  approvalPolicies: ApprovalPolicySnapshot[];
  moves: Move[];
  /**
   * The moves in service order, committed and waited Synced and Healthy group by group (absent or empty: one commit
   * of `moves`; older histories hold none).
   */
  groups?: PromotionGroup[];
  sourceEnvironment: string;
  targetEnvironment: string;
}

/** One step of a promotion in service order: the tenants' changes of some workloads, and what they render. */
export interface PromotionGroup {
  workloads: string[];
  moves: Move[];
  digest: string;
}

export interface PromotionActionResult {
  status: PromotionStatus;
}
export interface ApprovePromotionRequest {
  approver: ApproverProfile;
  actor: AuditActor;
  comment?: string;
}
export interface CancelPromotionRequest {
  actor: AuditActor;
  reason?: string;
}
/** A controller's report for one tenant's Application of the promotion's commit. */
export type PromotionSyncReport = SyncReport & { tenant: string };

export const approvePromotionUpdate = defineUpdate<PromotionActionResult, [ApprovePromotionRequest]>(
  'approvePromotion',
);
export const cancelPromotionUpdate = defineUpdate<PromotionActionResult, [CancelPromotionRequest]>('cancelPromotion');
export const reportPromotionSyncUpdate = defineUpdate<PromotionActionResult, [PromotionSyncReport]>(
  'reportPromotionSync',
);
/** Sent by the controller webhook when a source Application turns verified: a Blocked promotion looks again. */
export const sourceReportedSignal = defineSignal('sourceReported');
export const promotionStateQuery = defineQuery<{ status: PromotionStatus; commitSha: string | null }>('promotionState');

/** ApplicationFailure types of refused promotion actions (promotion-errors.ts maps each to one HTTP answer). */
export const PROMOTION_FAILURE = {
  finished: 'PromotionFinished',
  notBlocked: 'PromotionNotWaiting',
  noApprovalNeeded: 'NoApprovalNeeded',
  selfApproval: 'SelfApprovalRefused',
  alreadyDecided: 'AlreadyDecided',
  notEligible: 'NotEligibleApprover',
  notSyncing: 'NotSyncing',
  revisionMismatch: 'RevisionMismatch',
  unknownTenant: 'UnknownTenant',
} as const;

/** The promotion workflow (workflows/promotion.ts) by its registered type. */
export const promotionWorkflowType =
  workflowType<(input: PromotionWorkflowInput) => Promise<{ status: PromotionStatus }>>()('promotionWorkflow');
