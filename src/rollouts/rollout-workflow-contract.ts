/**
 * The rollout workflow (workflows/rollout.ts): one per rollout, wave by wave. Imported by workflow code, so it stays
 * free of Node built-ins and I/O.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ApprovalPolicySnapshot } from '../approval-policies/approval-decision';
import type { AuditActor } from '../audit/types';
import type { PromotionTiming } from '../promotions/promotion-workflow-contract';
import type { ApproverProfile } from '../releases/release-workflow-contract';
import type { Measurement } from '../verification/check-spec';
import { workflowType } from '../temporal/workflow-type';
import type { ResolvedWave } from './wave-selection';

export const ROLLOUT_STATUSES = [
  'Running',
  'AwaitingApproval',
  'Paused',
  'Halted',
  'Completed',
  'Aborted',
  'Superseded',
] as const;
export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];
/** `Superseded`: an image rollout a newer one of the same workload and environment replaced (docs/rollouts.md). */
export const FINAL_ROLLOUT_STATUSES: readonly RolloutStatus[] = ['Completed', 'Aborted', 'Superseded'];
/** The statuses of a rollout still in flight: the ones a newer image rollout supersedes. */
export const OPEN_ROLLOUT_STATUSES: readonly RolloutStatus[] = ROLLOUT_STATUSES.filter(
  (s) => !FINAL_ROLLOUT_STATUSES.includes(s),
);

/** What one wave is doing (the row's `waves[i].state`, the API and `--wait`). */
export type WaveState =
  | 'Pending'
  | 'AwaitingApproval'
  | 'Deploying'
  | 'Soaking'
  | 'Verifying'
  | 'Verified'
  | 'Skipped'
  | 'Failed'
  | 'RolledBack';

/** A wave as the workflow follows it: its tenants and, for its approval gate, the policies whose quorum it needs. */
export type RolloutWave = ResolvedWave & { gatePolicies: ApprovalPolicySnapshot[]; namespaces: string[] };

/** `rollout-<project>-<environment>-<id>`: readable in the Temporal UI's list, stored in the row. */
export function rolloutWorkflowId(rolloutId: string, project: string, environment: string): string {
  return `rollout-${project}-${environment}-${rolloutId}`;
}

export type RolloutPhase = 'gate' | 'deploy' | 'soak' | 'verify';

/** Where a run stands, carried over continue-as-new. */
export interface RolloutResume {
  wave: number;
  phase: RolloutPhase;
  /** The soak's end, epoch ms (set when the soak started). */
  soakEndsAt: number | null;
  /** Verification progress of the current wave: per check, measurements taken and failed. */
  progress: { taken: number; failed: number }[];
  /** Deploy attempts of the current wave (a resumed wave deploys again under a new promotion). */
  attempts: number;
  /** The promotions of the waves deployed so far (what a rollback on halt restores). */
  promotions: { wave: number; promotionId: string }[];
  approvals: ApproverProfile[];
  paused: boolean;
  halted: string | null;
  /** The deployed waves were rolled back while halted: a resume starts again from the first wave. */
  rolledBack: boolean;
}

export interface RolloutWorkflowInput {
  rolloutId: string;
  organizationId: string;
  projectId: string;
  projectSlug: string;
  sourceEnvironment: string;
  environment: string;
  /** The versions moving, for check templating (`{{version}}`). */
  version: string;
  requester: AuditActor;
  waves: RolloutWave[];
  rollbackOnHalt: boolean;
  gitTaskQueue: string;
  /** The timing each wave's promotion runs with. */
  promotionTiming: PromotionTiming;
  /** Events after which a run continues as new at its next step (under the 2,000-event budget). */
  historyLimit: number;
  resume?: RolloutResume;
}

/** What the rollout's row records for one step (activity recordRolloutStep). */
export interface RolloutStep {
  rolloutId: string;
  workflowId: string;
  action: string;
  actor: AuditActor;
  status: RolloutStatus;
  wave: number;
  waveState?: WaveState;
  reason?: string;
  promotionId?: string;
  measurement?: Measurement;
  /** rollout.supersede: the newer image rollout that replaced this one. */
  supersededBy?: string;
  /** Notify: the domain event of this step (rollout.halted, rollout.completed, rollout.wave.verified). */
  event?: 'rollout.halted' | 'rollout.completed' | 'rollout.wave.verified';
}

export interface RolloutActionRequest {
  actor: AuditActor;
  reason: string;
}
/** An image rollout replaced by a newer one of the same workload and environment (rollout-service `supersede`). */
export interface SupersedeRolloutRequest {
  actor: AuditActor;
  /** The newer rollout's id. */
  by: string;
  reason: string;
}
export interface ApproveWaveRequest {
  approver: ApproverProfile;
  actor: AuditActor;
  comment?: string;
}
export interface RolloutActionResult {
  status: RolloutStatus;
  wave: number;
}

export const pauseRolloutUpdate = defineUpdate<RolloutActionResult, [RolloutActionRequest]>('pauseRollout');
export const resumeRolloutUpdate = defineUpdate<RolloutActionResult, [RolloutActionRequest]>('resumeRollout');
export const abortRolloutUpdate = defineUpdate<RolloutActionResult, [RolloutActionRequest]>('abortRollout');
/** Ends the rollout `Superseded` before its next commit, rolling nothing back (the newer rollout moves on). */
export const supersedeRolloutUpdate = defineUpdate<RolloutActionResult, [SupersedeRolloutRequest]>('supersedeRollout');
export const skipSoakUpdate = defineUpdate<RolloutActionResult, [RolloutActionRequest]>('skipSoak');
export const approveWaveUpdate = defineUpdate<RolloutActionResult, [ApproveWaveRequest]>('approveWave');
export const rolloutStateQuery = defineQuery<{
  status: RolloutStatus;
  wave: number;
  phase: RolloutPhase;
  waiting: string;
}>('rolloutState');

/** ApplicationFailure types of refused rollout actions (the service maps each to one HTTP answer). */
export const ROLLOUT_FAILURE = {
  finished: 'RolloutFinished',
  notPausable: 'RolloutNotRunning',
  notPaused: 'RolloutNotPausedOrHalted',
  notSoaking: 'RolloutNotSoaking',
  notAwaitingApproval: 'RolloutNotAwaitingApproval',
  selfApproval: 'SelfApprovalRefused',
  alreadyDecided: 'AlreadyDecided',
  notEligible: 'NotEligibleApprover',
} as const;

/** The rollout workflow (workflows/rollout.ts) by the name the worker registers. */
export const rolloutWorkflowType =
  workflowType<(input: RolloutWorkflowInput) => Promise<{ status: RolloutStatus }>>()('rolloutWorkflow');
