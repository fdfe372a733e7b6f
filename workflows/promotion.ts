import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { commitOnGitQueue, commitWaitNote } from './git-commit';
import { Turns } from './lib/turns';
import { commitRefusal, syncOutcomeOf, type SyncOutcome } from './lib/deploy-outcome';
import { waitUntilClear } from './lib/wait-until-clear';
import { deployInOrder } from './lib/service-order';
import { approvalsDetails, blockedDetails } from './lib/current-details';
import { SEARCH_ATTRIBUTES } from '../src/temporal/definitions';
import { COMMIT_FAILURE } from '../src/gitops/commit-failure';
import { breakGlassDetails } from '../src/governance/governance-verdict';
import { canApprove } from '../src/approval-policies/approval-decision';
import {
  FINAL_PROMOTION_STATUSES,
  PROMOTION_FAILURE,
  approvePromotionUpdate,
  cancelPromotionUpdate,
  promotionStateQuery,
  reportPromotionSyncUpdate,
  sourceReportedSignal,
  type Evaluation,
  type PromotionStatus,
  type PromotionSyncReport,
  type PromotionWorkflowInput,
} from '../src/promotions/promotion-workflow-contract';
import type { AuditActor } from '../src/audit/types';
import type { CommitRequest } from '../src/gitops/commit-path';

const acts = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/** A changed project between evaluation and commit sends the promotion back to evaluation at most this often. */
const MAX_EVALUATIONS = 3;
const SYSTEM: AuditActor = { userId: null, actorType: 'system', actor: 'promotion-workflow', requestId: null };
const refuse = (message: string, type: string) => ApplicationFailure.nonRetryable(message, type);
/**
 * Patch id: a Blocked promotion waits on the freeze's end, the expiry and approvals with a backing-off fallback,
 * upserts its status only when it changes, and continues as new when the run grows long.
 */
const BOUNDED_WAITS = 'promotion-bounded-waits';
/**
 * Patch id: a commit waiting out a Git storage outage says so on the promotion's row (its status reason, with an audit
 * entry), so the API and the page show it; markPromotionCommitted clears it (issue 43).
 */
const COMMIT_WAIT_NOTED = 'promotion-commit-wait-noted';
/**
 * Patch id: a promotion blocked by nothing but approvals waits for them (each one an Update that wakes it) and for its
 * expiry, with no fallback re-check, as a release waits for its approvals (issue 45).
 */
const APPROVAL_WAIT = 'promotion-approval-wait';
/**
 * Patch id: a promotion changing workloads linked by dependsOn commits group by group in their order, each waited
 * Synced and Healthy in every tenant before the next (workflows/lib/service-order.ts, issue 48).
 */
const SERVICE_ORDER = 'promotion-service-order';

/**
 * One promotion from request to its end (docs/promotions.md has the diagram):
 * Evaluating -> Blocked (every cause that holds) <-> Evaluating -> Executing -> Syncing -> Healthy | Failed, with
 * Expired (Blocked too long) and Cancelled. While Blocked it evaluates again when an approval arrives, when a freeze
 * that blocks it ends, and every recheck interval. The commit moves every tenant in one commit through the one commit
 * path, under a key of this promotion, so a worker killed anywhere still makes exactly one commit.
 */
export async function promotionWorkflow(input: PromotionWorkflowInput): Promise<{ status: PromotionStatus }> {
  const { workflowId } = workflowInfo();
  const target = { promotionId: input.promotionId, workflowId };
  const turns = new Turns();
  const bounded = patched(BOUNDED_WAITS);
  const resume = input.resume;
  let status: PromotionStatus = resume ? 'Blocked' : 'Evaluating';
  let evaluation: Evaluation | null = null;
  const approvers = [...(resume?.approvers ?? [])];
  const decidedBy: string[] = approvers.map((a) => a.userId);
  /** Approvals recorded so far (each one wakes the Blocked wait). */
  let approvalsArrived = 0;
  let cancelledBy: AuditActor | null = null;
  let commitSha: string | null = null;
  const outcomes = new Map<string, SyncOutcome>();

  /** The status in the Temporal UI: the search attribute changes only with it, `details` say what it waits for. */
  const show = (to: PromotionStatus, details: string = to) => {
    setCurrentDetails(details);
    if (bounded && to === status) return;
    status = to;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.resourceStatus, value: to }]);
  };
  const finished = () => FINAL_PROMOTION_STATUSES.includes(status);
  const requireOpen = () => {
    if (finished()) throw refuse(`promotion is ${status}`, PROMOTION_FAILURE.finished);
    // Accepted but not yet recorded as final: no decision may land after it (approve racing cancel answers 409).
    if (cancelledBy) throw refuse('promotion is being cancelled', PROMOTION_FAILURE.finished);
  };
  setHandler(promotionStateQuery, () => ({ status, commitSha }));

  /**
   * `beforeAnswer`: the validator's look. The evaluation writes the row's Blocked before its answer (the policies)
   * reaches this run; an approval sent in between because the row said so is accepted, and the handler checks it
   * against the policies once the answer is in.
   */
  const validateApproval = (approver: Parameters<typeof canApprove>[1], beforeAnswer: boolean) => {
    requireOpen();
    if (status !== 'Blocked' && status !== 'Evaluating') {
      throw refuse(`promotion is ${status}, not waiting for approvals`, PROMOTION_FAILURE.notBlocked);
    }
    if (evaluation === null && beforeAnswer) return;
    const policies = evaluation?.approvalPolicies ?? [];
    if (policies.length === 0) {
      throw refuse('no approval policy covers this promotion', PROMOTION_FAILURE.noApprovalNeeded);
    }
    const decision = canApprove(
      policies,
      approver,
      input.requester.userId,
      decidedBy.map((userId) => ({ userId })),
    );
    if (decision.ok) return;
    const type = {
      'self-approval': PROMOTION_FAILURE.selfApproval,
      'already-approved': PROMOTION_FAILURE.alreadyDecided,
      'not-eligible': PROMOTION_FAILURE.notEligible,
    }[decision.reason];
    throw refuse(decision.message, type);
  };
  setHandler(
    approvePromotionUpdate,
    async (req) => {
      if (evaluation === null) await condition(() => evaluation !== null || finished() || cancelledBy !== null);
      await turns.exclusively(
        async () => {
          await acts.recordPromotionApproval({ ...target, ...req });
          decidedBy.push(req.approver.userId);
          approvers.push(req.approver);
          approvalsArrived += 1;
        },
        () => validateApproval(req.approver, false),
      );
      return { status };
    },
    { validator: (req) => validateApproval(req.approver, true) },
  );

  const validateCancel = () => {
    requireOpen();
    if (status !== 'Blocked' && status !== 'Evaluating') {
      throw refuse(`promotion is ${status}; it can no longer be cancelled`, PROMOTION_FAILURE.notBlocked);
    }
  };
  setHandler(
    cancelPromotionUpdate,
    async (req) => {
      await turns.exclusively(async () => {
        cancelledBy = req.actor;
      }, validateCancel);
      await condition(finished);
      return { status };
    },
    { validator: (_req) => validateCancel() },
  );

  const validateSync = (report: PromotionSyncReport) => {
    requireOpen();
    if (commitSha === null || (status !== 'Syncing' && status !== 'Executing')) {
      throw refuse(`promotion is ${status}, not waiting for a sync`, PROMOTION_FAILURE.notSyncing);
    }
    if (report.revision !== commitSha) {
      throw refuse(`revision ${report.revision} is not this promotion's commit`, PROMOTION_FAILURE.revisionMismatch);
    }
    if (!evaluation?.moves.some((m) => m.tenant === report.tenant)) {
      throw refuse(`tenant ${report.tenant} is not part of this promotion`, PROMOTION_FAILURE.unknownTenant);
    }
  };
  setHandler(
    reportPromotionSyncUpdate,
    async (report) => {
      await turns.exclusively(
        async () => {
          await acts.recordPromotionSync({ ...target, report });
          const outcome = syncOutcomeOf(report);
          if (outcome) outcomes.set(report.tenant, outcome);
        },
        () => validateSync(report),
      );
      return { status };
    },
    { validator: (report) => validateSync(report) },
  );

  // A source Application turned verified: a Blocked promotion evaluates again at once (no command: replays unchanged).
  setHandler(sourceReportedSignal, () => {
    approvalsArrived += 1;
  });

  const step = async <T>(work: () => Promise<T>) => turns.exclusively(work);
  const finish = async (to: PromotionStatus, actor: AuditActor, reason: string) => {
    await step(() => acts.transitionPromotion({ ...target, to, actor, reason }));
    show(to);
    await condition(allHandlersFinished);
    return { status };
  };

  /**
   * Waits until every tenant's Applications at the awaited commit report Synced and Healthy, or one fails (what
   * markPromotionCommitted found already reported counts): the outcome, null when the sync timeout came first.
   */
  const awaitTenants = async (
    reported: PromotionSyncReport[] | undefined,
    tenants: string[],
  ): Promise<SyncOutcome | null> => {
    for (const report of reported ?? []) {
      const outcome = syncOutcomeOf(report);
      if (outcome) outcomes.set(report.tenant, outcome);
    }
    const failedTenant = () => tenants.find((t) => outcomes.get(t)?.status === 'Failed');
    const settled = () => failedTenant() !== undefined || tenants.every((t) => outcomes.has(t));
    const inTime = await condition(settled, input.timing.syncTimeoutMs);
    await step(async () => undefined);
    if (!inTime) return null;
    const failed = failedTenant();
    if (failed === undefined) return { status: 'Healthy', reason: 'every tenant synced and healthy', actor: SYSTEM };
    const outcome = outcomes.get(failed) as SyncOutcome;
    return { ...outcome, reason: `${failed}: ${outcome.reason}` };
  };

  const expiresAt = resume?.expiresAt ?? Date.now() + input.timing.expiryMs;
  let recheckMs = resume?.recheckMs ?? input.timing.recheckMs;
  for (let evaluations = resume?.evaluations ?? 1; ; evaluations += 1) {
    // Wait until every cause clears (evaluated again on an approval, at a freeze's end, at the expiry, on a
    // backing-off fallback for causes nothing signals).
    const wait = await waitUntilClear({
      check: () => step(() => acts.evaluatePromotion(target)),
      holdOf: (evaluated) =>
        evaluated.causes.length === 0
          ? null
          : {
              clearsAt: evaluated.clearsAt,
              wokenOnly: evaluated.causes.every((c) => c.cause === 'approvals') && patched(APPROVAL_WAIT),
            },
      onHold: (evaluated) => {
        evaluation = evaluated;
        const approvals = approvalsDetails(evaluated.approvalPolicies, approvers);
        show('Blocked', blockedDetails(evaluated.causes, evaluated.clearsAt, approvals));
      },
      wakes: () => approvalsArrived,
      stopped: () => cancelledBy !== null,
      deadline: expiresAt,
      recheckMs,
      mayContinue: bounded,
    });
    if (wait.kind === 'continue') {
      // A cancel accepted while the last evaluation answered ends the promotion in this run: its handler answers
      // once the promotion ends, so waiting for every handler would wait forever (and a new run would drop it).
      await condition(() => allHandlersFinished() || cancelledBy !== null);
      if (cancelledBy) return finish('Cancelled', cancelledBy, 'cancelled while blocked');
      return continueAsNew<typeof promotionWorkflow>({
        ...input,
        resume: { expiresAt, approvers, evaluations, recheckMs: wait.recheckMs },
      });
    }
    if (wait.kind === 'stopped') return finish('Cancelled', cancelledBy ?? SYSTEM, 'cancelled while blocked');
    if (wait.kind === 'deadline') {
      const causes = wait.answer.causes.map((c) => c.message).join('; ');
      return finish('Expired', SYSTEM, `still blocked after the expiry: ${causes}`);
    }
    evaluation = wait.answer;
    recheckMs = input.timing.recheckMs;
    if (cancelledBy) return finish('Cancelled', cancelledBy, 'cancelled');
    await step(() => acts.transitionPromotion({ ...target, to: 'Executing', actor: input.requester }));
    show('Executing', 'committing the moves');
    const current = evaluation as Evaluation;
    /** The commit of some of the moves (all of them, or one group in service order) under `key`. */
    const requestOf = (key: string, moves: Evaluation['moves'], digest: string): CommitRequest => ({
      organizationId: input.organizationId,
      projectId: input.projectId,
      idempotencyKey: key,
      workflowId,
      message: `Promote ${current.sourceEnvironment} to ${current.targetEnvironment}: ${moves
        .map((m) => m.tenant)
        .join(', ')}`,
      actor: { ...input.requester, email: null },
      operation: {
        type: 'promotion',
        promotionId: input.promotionId,
        sourceEnvironment: current.sourceEnvironment,
        environment: current.targetEnvironment,
        moves: moves.map((m) => ({ tenant: m.tenant, changes: m.changes })),
        digest,
        details: breakGlassDetails(current.breakGlass),
      },
    });
    // Workloads linked by dependsOn: commit group by group, each Synced and Healthy before the next (service order).
    const groups = current.groups ?? [];
    if (groups.length > 1 && patched(SERVICE_ORDER)) {
      const key = `promotion-${input.promotionId}-${evaluations}`;
      const end = await deployInOrder(groups, {
        commit: async (group, index, details) => {
          show(status, details);
          const request = requestOf(`${key}-group-${index + 1}`, group.moves, group.digest);
          const patience = { patienceMs: input.timing.commitPatienceMs };
          return (await commitOnGitQueue(request, input.gitTaskQueue, false, patience)).sha;
        },
        awaitHealthy: async (sha, details, group) => {
          commitSha = sha;
          outcomes.clear();
          const reported = await step(() =>
            acts.markPromotionCommitted({ ...target, sha, actor: input.requester, reason: details }),
          );
          show('Syncing', details);
          return awaitTenants(
            reported,
            group.moves.map((m) => m.tenant),
          );
        },
      });
      return finish(end.status, end.actor ?? SYSTEM, end.reason);
    }
    const request = requestOf(`promotion-${input.promotionId}-${evaluations}`, current.moves, current.digest);
    try {
      const patience = {
        patienceMs: input.timing.commitPatienceMs,
        onOutage: async (reason: string) => {
          const note = commitWaitNote(reason, Date.now());
          show('Executing', note);
          if (patched(COMMIT_WAIT_NOTED)) {
            await acts.notePromotionCommitWait({ ...target, note, actor: input.requester });
          }
        },
      };
      commitSha = (await commitOnGitQueue(request, input.gitTaskQueue, false, patience)).sha;
      break;
    } catch (err) {
      const refusal = commitRefusal(err);
      if (refusal !== COMMIT_FAILURE.deliveryChanged || evaluations >= MAX_EVALUATIONS) {
        return finish('Failed', SYSTEM, refusal ? `commit refused (${refusal})` : 'commit failed');
      }
    }
  }

  if (commitSha === null) {
    return finish('Healthy', SYSTEM, 'nothing to change: the repository already holds these versions');
  }
  // What the controller reported before the commit was noted (histories recorded earlier hold no result: undefined).
  const reported = await step(() =>
    acts.markPromotionCommitted({ ...target, sha: commitSha as string, actor: input.requester }),
  );
  show('Syncing', `waiting for the sync reports of commit ${commitSha.slice(0, 12)}`);
  const outcome = await awaitTenants(
    reported,
    (evaluation as Evaluation).moves.map((m) => m.tenant),
  );
  if (!outcome) return finish('Failed', SYSTEM, 'no healthy sync report of every tenant before the sync timeout');
  return finish(outcome.status, outcome.actor, outcome.reason);
}
