// Over 400 lines: one workflow function whose Update handlers (approve, reject, deploy, cancel, sync report) and steps
// close over the run's state; its state-free helpers live in workflows/lib.
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { commitOnGitQueue, commitWaitNote, gitCommitWorkflow } from './git-commit';
import type { CommitRequest } from '../src/gitops/commit-path';
import { Turns } from './lib/turns';
import { commitRefusal, syncOutcomeOf, type SyncOutcome } from './lib/deploy-outcome';
import { waitUntilClear } from './lib/wait-until-clear';
import { deployInOrder } from './lib/service-order';
import { approvalsDetails, frozenDetails, queuedDetails } from './lib/current-details';
import { childDescription } from './lib/child-description';
import { SEARCH_ATTRIBUTES } from '../src/temporal/definitions';
import { breakGlassDetails } from '../src/governance/governance-verdict';
import { COMMIT_FAILURE } from '../src/gitops/commit-failure';
import { approvalDeadline, canApprove, quorum } from '../src/approval-policies/approval-decision';
import {
  CANCELLABLE_STATUSES,
  FINAL_STATUSES,
  RELEASE_FAILURE,
  approveReleaseUpdate,
  cancelReleaseUpdate,
  deployReleaseUpdate,
  rejectReleaseUpdate,
  releaseStateQuery,
  releaseWorkflowId,
  reportSyncUpdate,
  targetFreedSignal,
  type ApproverProfile,
  type PreparedRelease,
  type ReleaseStatus,
  type ReleaseWorkflowInput,
} from '../src/releases/release-workflow-contract';
import type { SyncReport } from '../src/deployments/sync-report';
import type { AuditActor } from '../src/audit/types';

const acts = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/**
 * The steps between the create call and the commit's record, as local activities of the worker running the workflow
 * (issue 35): validation, the target's turn, the commit and its record run one after another in one workflow task.
 */
const localActs = proxyLocalActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/** A changed project between validation and commit sends the release back to validation at most this often. */
const MAX_PREPARATIONS = 3;
/** Patch id: the commit runs as an activity of the release itself instead of a child workflow. */
const DIRECT_COMMIT = 'release-commit-activity';
/** Patch id: a freeze in force at commit time holds the release back (Queued with the freeze as its reason). */
const FREEZE_GATE = 'release-freeze-gate';
/**
 * Patch id: the freeze and queue waits wait on the freeze's end and the hand-over signal with a backing-off fallback,
 * upsert the status only when it changes, and continue as new when the run grows long (workflows/lib/wait-until-clear).
 */
const BOUNDED_WAITS = 'release-bounded-waits';
/**
 * Patch id: the freeze check and the target's turn run as one activity (takeReleaseTurn) when nothing holds the
 * release; the waits that follow a hold start from its answer (issue 35: one Temporal round trip fewer).
 */
const FREEZE_IN_TURN = 'release-freeze-in-turn';
/**
 * Patch id: validation, the target's turn, the commit and its record run as local activities (`localActs`, and the
 * commit through commitOnGitQueue's `local`), so a release with nothing to wait for reaches its commit in the first
 * workflow task (issue 35: from six task queue round trips to none).
 */
const LOCAL_STEPS = 'release-local-steps';
/**
 * Patch id: a commit waiting out a Git storage outage says so on the release's row (its status reason, with an audit
 * entry), so the API, the web page and `--wait` show it; markReleaseCommitted clears it (issue 43).
 */
const COMMIT_WAIT_NOTED = 'release-commit-wait-noted';
/**
 * Patch id: a release changing workloads linked by dependsOn commits group by group in their order, each waited
 * Synced and Healthy before the next (workflows/lib/service-order.ts, issue 48).
 */
const SERVICE_ORDER = 'release-service-order';
/**
 * Patch id: a release with nothing to wait for before its commit (not blocked, no approval, auto-deploy) takes its
 * freeze check and turn in the prepare step's transaction (`turnFor`), one local activity fewer (issue 46).
 */
const PREPARE_WITH_TURN = 'release-prepare-with-turn';

const refuse = (message: string, type: string) => ApplicationFailure.nonRetryable(message, type);

/**
 * One release from creation to its end (docs/releases.md has the diagram):
 * Validating -> Blocked | PendingApproval -> AwaitingDeploy -> Queued -> Deploying -> Syncing -> Healthy | Failed,
 * with Rejected, Expired and Cancelled on the way. Human actions and sync reports are Updates whose validators refuse
 * at once (nothing written); handlers run one at a time (Turns) and change the row through activities that write its
 * audit entry in the same transaction. The commit runs in the commit workflow (the one commit path) as a child, under
 * a key of this release, so a worker killed anywhere still makes exactly one commit.
 */
export async function releaseWorkflow(input: ReleaseWorkflowInput): Promise<{ status: ReleaseStatus }> {
  const { workflowId } = workflowInfo();
  const target = { releaseId: input.releaseId, workflowId };
  const turns = new Turns();
  const bounded = patched(BOUNDED_WAITS);
  const local = patched(LOCAL_STEPS);
  /** The steps up to the commit's record: local activities in runs that took the patch. */
  const steps = local ? localActs : acts;
  const resume = input.resume;
  let status: ReleaseStatus = resume ? 'Queued' : 'Validating';
  let prepared: PreparedRelease | null = resume?.prepared ?? null;
  const approvals: ApproverProfile[] = [...(resume?.approvals ?? [])];
  const decidedBy: string[] = [...(resume?.decidedBy ?? [])];
  let rejectedBy: AuditActor | null = null;
  let cancelledBy: AuditActor | null = null;
  let deployedBy: AuditActor | null = null;
  /** Hand-overs signalled by the release ahead (each one wakes the queue wait). */
  let handovers = 0;
  let commitSha: string | null = null;
  let syncOutcome: SyncOutcome | null = null;
  /** True while the row's transition to PendingApproval runs (see validateDecision). */
  let enteringApprovals = false;
  /** The same for the turn to AwaitingDeploy: a deploy sent because the row said so is accepted. */
  let enteringDeploy = false;

  /**
   * The status the workflow holds, and shows in the Temporal UI (the row is changed by the activities): the search
   * attribute is upserted only when the status changes, and `details` say what it waits for.
   */
  const show = (to: ReleaseStatus, details: string = to) => {
    setCurrentDetails(details);
    if (bounded && to === status) return;
    status = to;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.resourceStatus, value: to }]);
  };
  const setStatus = async (to: ReleaseStatus, actor: AuditActor, details?: string) => {
    await acts.transitionRelease({ ...target, to, actor });
    show(to, details);
  };
  const finished = () => FINAL_STATUSES.includes(status);
  const requireOpen = () => {
    if (finished()) throw refuse(`release is ${status}`, RELEASE_FAILURE.finished);
    // Accepted but not yet recorded as final: no decision may land after it (approve racing cancel answers 409).
    if (cancelledBy) throw refuse('release is being cancelled', RELEASE_FAILURE.finished);
    if (rejectedBy) throw refuse('release is being rejected', RELEASE_FAILURE.finished);
  };
  const policies = () => prepared?.approvalPolicies ?? [];
  const approved = () => quorum(policies(), approvals).met;

  setHandler(releaseStateQuery, () => ({ status, approvals: approvals.length, commitSha }));

  const validateDecision = (approver: ApproverProfile) => {
    requireOpen();
    // While the row turns PendingApproval the workflow still holds Validating: an approval sent because the row said
    // so is accepted (it is applied once the turn is over, as the handler waits for it).
    if (status !== 'PendingApproval' && !enteringApprovals) {
      throw refuse(`release is ${status}, not waiting for approvals`, RELEASE_FAILURE.notAwaitingApproval);
    }
    const decision = canApprove(
      policies(),
      approver,
      input.requester.userId,
      decidedBy.map((userId) => ({ userId })),
    );
    if (decision.ok) return;
    const type = {
      'self-approval': RELEASE_FAILURE.selfApproval,
      'already-approved': RELEASE_FAILURE.alreadyDecided,
      'not-eligible': RELEASE_FAILURE.notEligible,
    }[decision.reason];
    throw refuse(decision.message, type);
  };

  setHandler(
    approveReleaseUpdate,
    async (req) => {
      await turns.exclusively(
        async () => {
          await acts.recordReleaseDecision({ ...target, decision: 'approve', ...req });
          approvals.push(req.approver);
          decidedBy.push(req.approver.userId);
        },
        () => validateDecision(req.approver),
      );
      // The last approval needed answers with where the release went next.
      if (approved()) await condition(() => status !== 'PendingApproval');
      return { status };
    },
    { validator: (req) => validateDecision(req.approver) },
  );

  setHandler(
    rejectReleaseUpdate,
    async (req) => {
      await turns.exclusively(
        async () => {
          await acts.recordReleaseDecision({ ...target, decision: 'reject', ...req });
          decidedBy.push(req.approver.userId);
          rejectedBy = req.actor;
        },
        () => validateDecision(req.approver),
      );
      await condition(finished);
      return { status };
    },
    { validator: (req) => validateDecision(req.approver) },
  );

  const validateDeploy = () => {
    requireOpen();
    // While the row turns AwaitingDeploy the workflow still holds the status before: the handler waits for the turn.
    if (enteringDeploy) return;
    if (status === 'PendingApproval') {
      throw refuse('release is waiting for approvals; it cannot be deployed yet', RELEASE_FAILURE.notAwaitingDeploy);
    }
    if (status !== 'AwaitingDeploy') {
      throw refuse(`release is ${status}, not waiting for a deploy`, RELEASE_FAILURE.notAwaitingDeploy);
    }
  };
  setHandler(
    deployReleaseUpdate,
    async (req) => {
      await turns.exclusively(async () => {
        deployedBy = req.actor;
      }, validateDeploy);
      await condition(() => status !== 'AwaitingDeploy');
      return { status };
    },
    { validator: (_req) => validateDeploy() },
  );

  const validateCancel = () => {
    requireOpen();
    if (!CANCELLABLE_STATUSES.includes(status)) {
      throw refuse(`release is ${status}; it can no longer be cancelled`, RELEASE_FAILURE.notCancellable);
    }
  };
  setHandler(
    cancelReleaseUpdate,
    async (req) => {
      await turns.exclusively(async () => {
        cancelledBy = req.actor;
      }, validateCancel);
      await condition(finished);
      return { status };
    },
    { validator: (_req) => validateCancel() },
  );

  const validateSync = (report: SyncReport) => {
    requireOpen();
    // A controller may report before the row-and-status step after the commit ended: the commit is what counts.
    if (commitSha === null || (status !== 'Syncing' && status !== 'Deploying')) {
      throw refuse(`release is ${status}, not waiting for a sync`, RELEASE_FAILURE.notSyncing);
    }
    if (report.revision !== commitSha) {
      throw refuse(`revision ${report.revision} is not this release's commit`, RELEASE_FAILURE.revisionMismatch);
    }
  };
  setHandler(
    reportSyncUpdate,
    async (report) => {
      await turns.exclusively(
        async () => {
          await acts.recordReleaseSync({ ...target, report });
          syncOutcome = syncOutcomeOf(report);
        },
        () => validateSync(report),
      );
      // Answered once the release ends, or (in service order) once it moved on to its next group's commit.
      const awaited = commitSha;
      if (syncOutcome) await condition(() => finished() || commitSha !== awaited);
      return { status };
    },
    { validator: (report) => validateSync(report) },
  );

  setHandler(targetFreedSignal, () => {
    handovers += 1;
  });

  const SYSTEM: AuditActor = { userId: null, actorType: 'system', actor: 'release-workflow', requestId: null };

  /** Ends the release and hands its target to the next release in line. */
  const finish = async (to: ReleaseStatus, actor: AuditActor, reason: string) => {
    const { next, nextWorkflowId } = await acts.finishRelease({ ...target, to, actor, reason });
    show(to);
    if (next) {
      try {
        await getExternalWorkflowHandle(nextWorkflowId ?? releaseWorkflowId(next)).signal(targetFreedSignal);
      } catch {
        // Gone or not started yet: its own poll finds the target free.
      }
    }
    await condition(allHandlersFinished);
    return { status };
  };

  /** A step of the main flow: one transition at a time, so an Update handler never interleaves with it. */
  const step = async <T>(work: () => Promise<T>) => turns.exclusively(work);
  /** Lets an Update handler that is running finish before the main flow reads what it decided. */
  const settle = () => turns.exclusively(async () => undefined);

  const withTurn = !resume && local && patched(PREPARE_WITH_TURN);
  prepared ??= await step(() => steps.prepareRelease(withTurn ? { ...target, turnFor: input.requester } : target));
  /** The freeze check and turn the prepare step took (this run's own only: a resumed run's `prepared` is older). */
  const preparedTurn = withTurn ? (prepared.turn ?? null) : null;
  if (prepared.blocked) return finish('Blocked', SYSTEM, prepared.blockReason ?? 'blocked');

  if (!resume && prepared.approvalPolicies.length > 0) {
    const policiesNow = prepared.approvalPolicies;
    enteringApprovals = true;
    await step(() => setStatus('PendingApproval', input.requester, approvalsDetails(policiesNow, approvals)));
    enteringApprovals = false;
    const deadline = approvalDeadline(prepared.approvalPolicies, Date.now());
    const decided = () => approved() || rejectedBy !== null || cancelledBy !== null;
    const inTime = await condition(decided, deadline === null ? undefined : Math.max(deadline - Date.now(), 1));
    await settle();
    if (cancelledBy) return finish('Cancelled', cancelledBy, 'cancelled while waiting for approvals');
    if (rejectedBy) return finish('Rejected', rejectedBy, 'rejected by an approver');
    if (!inTime && !approved()) return finish('Expired', SYSTEM, 'approval request expired');
  }

  if (!resume && !prepared.autoDeploy) {
    enteringDeploy = true;
    await step(() => setStatus('AwaitingDeploy', SYSTEM, 'waiting for someone to deploy it'));
    enteringDeploy = false;
    await condition(() => deployedBy !== null || cancelledBy !== null);
    if (cancelledBy) return finish('Cancelled', cancelledBy, 'cancelled before deploy');
  }
  const deployer: AuditActor = resume?.deployer ?? deployedBy ?? input.requester;
  const held = prepared;
  /**
   * A long wait goes on in a fresh run with what this one decided (approvals, deployer, the validated changes). A cancel
   * accepted while the last look answered ends the release in this run instead: a new run would never hear of it.
   */
  const carryOn = async (stage: 'frozen' | 'queued', recheckMs: number) => {
    await condition(() => allHandlersFinished() || cancelledBy !== null);
    if (cancelledBy) return finish('Cancelled', cancelledBy, `cancelled while ${stage}`);
    return continueAsNew<typeof releaseWorkflow>({
      ...input,
      resume: { stage, prepared: held, deployer, approvals, decidedBy, recheckMs },
    });
  };
  const waiting = {
    stopped: () => cancelledBy !== null,
    mayContinue: bounded,
  };

  // A freeze that started while the release waited holds its commit back until it ends (or break-glass covers it).
  const gated = resume?.stage !== 'queued' && patched(FREEZE_GATE);
  // Both looks at once; each wait below then starts from its answer instead of asking again (the queue's only if no
  // hand-over came since: then it looks again, as a wake during its own check would have it).
  const handoversAtFirst = handovers;
  const first =
    preparedTurn ??
    (gated && patched(FREEZE_IN_TURN) ? await step(() => steps.takeReleaseTurn({ ...target, actor: deployer })) : null);
  let firstFreeze = first?.freeze ?? null;
  let firstTurn = first?.turn ?? null;
  const answered = <T>(answer: T | null, ask: () => Promise<T>) =>
    answer === null ? step(ask) : Promise.resolve(answer);
  if (gated) {
    const gate = await waitUntilClear({
      ...waiting,
      check: () => {
        const answer = firstFreeze;
        firstFreeze = null;
        return answered(answer, () => acts.checkReleaseFreezes({ ...target, actor: deployer }));
      },
      holdOf: (frozen) => (frozen.reason === null ? null : { clearsAt: frozen.clearsAt }),
      onHold: (frozen) => show('Queued', frozenDetails(frozen.clearsAt, frozen.reason ?? 'frozen')),
      // Nothing signals a freeze's end: its known end and the fallback re-check cover it.
      wakes: () => 0,
      recheckMs: resume?.recheckMs ?? input.timing.queuePollMs,
    });
    if (gate.kind === 'continue') return carryOn('frozen', gate.recheckMs);
    if (gate.kind === 'stopped') return finish('Cancelled', cancelledBy ?? SYSTEM, 'cancelled while frozen');
  }

  // One deployment at a time per target: wait for the turn, in the order releases became ready.
  const queue = await waitUntilClear({
    ...waiting,
    check: () => {
      const answer = handovers === handoversAtFirst ? firstTurn : null;
      firstTurn = null;
      return answered(answer, () => acts.acquireReleaseTarget({ ...target, actor: deployer }));
    },
    holdOf: (turn) => (turn.acquired ? null : { clearsAt: null }),
    onHold: (turn) => show('Queued', queuedDetails(turn.behindTitle ?? turn.behind)),
    wakes: () => handovers,
    wakesDuringCheck: bounded,
    recheckMs: resume?.stage === 'queued' ? resume.recheckMs : input.timing.queuePollMs,
  });
  if (queue.kind === 'continue') return carryOn('queued', queue.recheckMs);
  if (queue.kind === 'stopped') return finish('Cancelled', cancelledBy ?? SYSTEM, 'cancelled while queued');
  show('Deploying', 'committing its changes');

  /** The commit of some of the validated changes (all of them, or one group in service order) under `key`. */
  const requestOf = (current: PreparedRelease, key: string, changes: PreparedRelease['changes'], digest: string) =>
    ({
      organizationId: input.organizationId,
      projectId: input.projectId,
      idempotencyKey: key,
      workflowId,
      message: `Release ${input.releaseId}: ${current.tenantSlug}/${input.environment}`,
      actor: { ...deployer, email: null },
      releaseId: input.releaseId,
      operation: {
        type: 'release',
        tenant: current.tenantSlug,
        environment: input.environment,
        changes,
        digest,
        details: breakGlassDetails(current.breakGlass ?? null),
      },
    }) satisfies CommitRequest;

  // Workloads linked by dependsOn: commit group by group, each Synced and Healthy before the next (service order).
  const groups = prepared.groups ?? [];
  if (groups.length > 1 && patched(SERVICE_ORDER)) {
    const current = prepared;
    const end = await deployInOrder(groups, {
      commit: async (group, index, details) => {
        show(status, details);
        const request = requestOf(
          current,
          `release-${input.releaseId}-group-${index + 1}`,
          group.changes,
          group.digest,
        );
        const patience = { patienceMs: input.timing.commitPatienceMs };
        return (await commitOnGitQueue(request, input.gitTaskQueue, local, patience)).sha;
      },
      awaitHealthy: async (sha, details) => {
        commitSha = sha;
        syncOutcome = null;
        const reported = await step(() =>
          steps.markReleaseCommitted({ ...target, sha, actor: deployer, reason: details }),
        );
        show('Syncing', details);
        if (reported) syncOutcome = syncOutcomeOf(reported);
        await condition(() => syncOutcome !== null, input.timing.syncTimeoutMs);
        await settle();
        return syncOutcome;
      },
    });
    return finish(end.status, end.actor ?? SYSTEM, end.reason);
  }

  for (let attempt = 1; ; attempt += 1) {
    const request = requestOf(prepared, `release-${input.releaseId}-${attempt}`, prepared.changes, prepared.digest);
    try {
      // Releases started before this change commit through a child commit workflow; newer ones call the commit
      // activity directly (three fewer workflow tasks between approval and commit).
      const outcome = patched(DIRECT_COMMIT)
        ? await commitOnGitQueue(request, input.gitTaskQueue, local, {
            patienceMs: input.timing.commitPatienceMs,
            onOutage: async (reason) => {
              const note = commitWaitNote(reason, Date.now());
              show('Deploying', note);
              if (patched(COMMIT_WAIT_NOTED)) {
                await acts.noteReleaseCommitWait({ ...target, note, actor: deployer });
              }
            },
          })
        : await executeChild(gitCommitWorkflow, {
            workflowId: `git-commit-${input.projectId}-release-${input.releaseId}-${attempt}`,
            args: [
              {
                taskQueue: input.gitTaskQueue,
                request: {
                  ...request,
                  workflowId: `git-commit-${input.projectId}-release-${input.releaseId}-${attempt}`,
                },
              },
            ],
            ...childDescription(input, `commit: ${request.message.slice(0, 120)}`),
          });
      commitSha = outcome.sha;
      break;
    } catch (err) {
      const refusal = commitRefusal(err);
      if (refusal !== COMMIT_FAILURE.deliveryChanged || attempt >= MAX_PREPARATIONS) {
        return finish('Failed', SYSTEM, refusal ? `commit refused (${refusal})` : 'commit failed');
      }
      // The project changed between validation and commit: validate what would be committed now.
      prepared = await steps.prepareRelease(target);
      if (prepared.blocked) return finish('Blocked', SYSTEM, prepared.blockReason ?? 'blocked');
    }
  }

  if (commitSha === null) {
    return finish('Healthy', SYSTEM, 'nothing to change: the repository already holds this configuration');
  }
  // What the controller reported before the commit was noted (histories recorded earlier hold no result: undefined).
  const reported = await step(() =>
    steps.markReleaseCommitted({ ...target, sha: commitSha as string, actor: deployer }),
  );
  show('Syncing', `waiting for the sync report of commit ${commitSha.slice(0, 12)}`);
  if (reported) syncOutcome = syncOutcomeOf(reported);
  const synced = await condition(() => syncOutcome !== null, input.timing.syncTimeoutMs);
  await settle();
  const outcome = syncOutcome as SyncOutcome | null;
  if (!synced || !outcome) return finish('Failed', SYSTEM, 'no healthy sync report before the sync timeout');
  return finish(outcome.status, outcome.actor, outcome.reason);
}
