// Over 400 lines: one rollout's wave loop and the Updates that steer it (pause, resume, skip-soak, abort, approve,
// supersede) share its state in one closure.
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  executeChild,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { commitOnGitQueue } from './git-commit';
import { promotionWorkflow } from './promotion';
import { approvalsDetails } from './lib/current-details';
import { childDescription } from './lib/child-description';
import { SEARCH_ATTRIBUTES } from '../src/temporal/definitions';
import { canApprove, quorum } from '../src/approval-policies/approval-decision';
import {
  FINAL_ROLLOUT_STATUSES,
  ROLLOUT_FAILURE,
  abortRolloutUpdate,
  approveWaveUpdate,
  pauseRolloutUpdate,
  resumeRolloutUpdate,
  rolloutStateQuery,
  skipSoakUpdate,
  supersedeRolloutUpdate,
  type RolloutActionRequest,
  type RolloutResume,
  type RolloutStatus,
  type RolloutStep,
  type RolloutWorkflowInput,
  type SupersedeRolloutRequest,
} from '../src/rollouts/rollout-workflow-contract';
import type { AuditActor } from '../src/audit/types';

const acts = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});
/** The verification activity (activities/verification.ts): a failed or unreachable measurement is a failed one. */
const { measureCheck } = proxyActivities<Pick<ReturnType<typeof createActivities>, 'measureCheck'>>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

const SYSTEM: AuditActor = { userId: null, actorType: 'system', actor: 'rollout-workflow', requestId: null };
const refuse = (message: string, type: string) => ApplicationFailure.nonRetryable(message, type);

/**
 * One rollout, wave by wave (docs/rollouts.md): an approval gate when the wave has one, then the wave's promotion
 * (a child promotion workflow over the wave's tenants: freezes, approval policies, break-glass, one commit, the
 * controller's Synced and Healthy reports, exactly as any promotion), the soak (a durable timer), the verification
 * checks (measured `count` times, `intervalSeconds` apart), then the next wave. A failed wave or check halts: the
 * rollout notifies, rolls the deployed waves back in one commit when the plan says so, and waits to be resumed or
 * aborted. Long soaks and verifications continue as new at a step boundary. A newer image rollout of the same workload
 * and environment supersedes it (an Update): it ends `Superseded` before its next commit, rolling nothing back.
 */
export async function rolloutWorkflow(input: RolloutWorkflowInput): Promise<{ status: RolloutStatus }> {
  const { workflowId } = workflowInfo();
  const s: RolloutResume = input.resume ?? {
    wave: 0,
    phase: 'gate',
    soakEndsAt: null,
    progress: [],
    attempts: 0,
    promotions: [],
    approvals: [],
    paused: false,
    halted: null,
    rolledBack: false,
  };
  let status: RolloutStatus = s.halted ? 'Halted' : s.paused ? 'Paused' : 'Running';
  let aborted: AuditActor | null = null;
  /** Set by the supersede Update, before its entry is recorded: no wave starts after it. */
  let superseded: SupersedeRolloutRequest | null = null;
  const stopping = () => aborted !== null || superseded !== null;
  let skipSoak = false;
  /**
   * True from the moment a wave's `Soaking` entry is being recorded (its row already says Soaking) until the soak
   * ends: a skip-soak arriving while the entry is written is accepted, and recorded after it.
   */
  let soakOpen = false;
  let waiting = 'starting';
  const waves = input.waves;

  const show = (to: RolloutStatus, what: string) => {
    waiting = what;
    const wave = waves[Math.min(s.wave, waves.length - 1)];
    const where = wave ? `wave ${s.wave + 1}/${waves.length} (${wave.name}: ${wave.tenants.join(', ')})` : '';
    setCurrentDetails(
      `rollout ${input.rolloutId} ${input.sourceEnvironment} -> ${input.environment}, ${where}: ${what}`,
    );
    if (to === status) return;
    status = to;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.resourceStatus, value: to }]);
  };
  const record = (step: Omit<RolloutStep, 'rolloutId' | 'workflowId' | 'status' | 'wave'>) =>
    acts.recordRolloutStep({ rolloutId: input.rolloutId, workflowId, status, wave: s.wave, ...step });
  const finished = () => FINAL_ROLLOUT_STATUSES.includes(status);
  setHandler(rolloutStateQuery, () => ({ status, wave: s.wave, phase: s.phase, waiting }));

  const open = () => {
    if (finished()) throw refuse(`rollout is ${status}`, ROLLOUT_FAILURE.finished);
    if (superseded) throw refuse(`rollout is superseded by rollout ${superseded.by}`, ROLLOUT_FAILURE.finished);
    if (aborted) throw refuse('rollout is being aborted', ROLLOUT_FAILURE.finished);
  };
  /**
   * An action's audit entry is written before it takes effect, so the entry precedes what it causes; once `ready`
   * holds when given (the step it acts on has its own entry recorded first).
   */
  const action = (
    update: typeof pauseRolloutUpdate,
    validate: () => void,
    apply: () => RolloutStatus,
    name: string,
    ready?: () => boolean,
  ) =>
    setHandler(
      update,
      async (req) => {
        if (ready) await condition(() => ready() || stopping());
        validate();
        await acts.recordRolloutStep({
          rolloutId: input.rolloutId,
          workflowId,
          status: name === 'rollout.pause' ? 'Paused' : name === 'rollout.resume' ? 'Running' : status,
          wave: s.wave,
          action: name,
          actor: req.actor,
          reason: req.reason,
        });
        show(apply(), waiting);
        return { status, wave: s.wave };
      },
      { validator: (_req: RolloutActionRequest) => validate() },
    );
  action(
    pauseRolloutUpdate,
    () => {
      open();
      if (status === 'Paused' || status === 'Halted') throw refuse(`rollout is ${status}`, ROLLOUT_FAILURE.notPausable);
    },
    () => {
      s.paused = true;
      return 'Paused';
    },
    'rollout.pause',
  );
  action(
    resumeRolloutUpdate,
    () => {
      open();
      if (status !== 'Paused' && status !== 'Halted') {
        throw refuse(`rollout is ${status}, not paused or halted`, ROLLOUT_FAILURE.notPaused);
      }
    },
    () => {
      s.paused = false;
      s.halted = null;
      return 'Running';
    },
    'rollout.resume',
  );
  action(
    skipSoakUpdate,
    () => {
      open();
      if (!soakOpen && s.phase !== 'soak') {
        throw refuse(`wave ${s.wave + 1} is not soaking`, ROLLOUT_FAILURE.notSoaking);
      }
    },
    () => {
      skipSoak = true;
      return status;
    },
    'rollout.soak.skip',
    () => s.phase === 'soak',
  );
  setHandler(
    abortRolloutUpdate,
    async (req) => {
      open();
      await record({ action: 'rollout.abort.request', actor: req.actor, reason: req.reason });
      aborted = req.actor;
      return { status, wave: s.wave };
    },
    { validator: (_req: RolloutActionRequest) => open() },
  );
  // A rollout being aborted is superseded all the same: its wave in flight must not commit after the newer rollout's.
  const validateSupersede = () => {
    if (finished() || superseded) throw refuse(`rollout is ${status}`, ROLLOUT_FAILURE.finished);
  };
  setHandler(
    supersedeRolloutUpdate,
    async (req) => {
      validateSupersede();
      superseded = req;
      await acts.recordRolloutStep({
        rolloutId: input.rolloutId,
        workflowId,
        status: 'Superseded',
        wave: s.wave,
        action: 'rollout.supersede',
        actor: req.actor,
        reason: req.reason,
        supersededBy: req.by,
      });
      return { status: 'Superseded' as const, wave: s.wave };
    },
    { validator: (_req: SupersedeRolloutRequest) => validateSupersede() },
  );
  const validateApproval = (approver: Parameters<typeof canApprove>[1]) => {
    open();
    if (status !== 'AwaitingApproval') {
      throw refuse(`rollout is ${status}, not waiting for approvals`, ROLLOUT_FAILURE.notAwaitingApproval);
    }
    const decision = canApprove(waves[s.wave]?.gatePolicies ?? [], approver, input.requester.userId, s.approvals);
    if (decision.ok) return;
    const types = {
      'self-approval': ROLLOUT_FAILURE.selfApproval,
      'already-approved': ROLLOUT_FAILURE.alreadyDecided,
      'not-eligible': ROLLOUT_FAILURE.notEligible,
    };
    throw refuse(decision.message, types[decision.reason]);
  };
  setHandler(
    approveWaveUpdate,
    async (req) => {
      validateApproval(req.approver);
      await record({ action: 'rollout.wave.approve', actor: req.actor, reason: req.comment });
      s.approvals.push(req.approver);
      return { status, wave: s.wave };
    },
    { validator: (req) => validateApproval(req.approver) },
  );

  const tooLong = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > input.historyLimit;
  /** Continues as new at a step boundary; an abort or supersede that landed meanwhile ends this run instead. */
  const carryOn = async () => {
    await condition(allHandlersFinished);
    if (stopping()) return stop();
    return continueAsNew<typeof rolloutWorkflow>({ ...input, resume: s });
  };
  const end = async (
    to: RolloutStatus,
    actor: AuditActor,
    act: string,
    reason: string,
    event?: RolloutStep['event'],
  ) => {
    show(to, reason);
    await record({ action: act, actor, reason, event });
    await condition(allHandlersFinished);
    return { status };
  };
  const abort = () => end('Aborted', aborted ?? SYSTEM, 'rollout.abort', 'aborted');
  /** Ends the run: Superseded (its Update recorded the entry and the row's status), else Aborted. */
  const stop = async () => {
    if (!superseded) return abort();
    show('Superseded', `superseded by rollout ${superseded.by}`);
    await condition(allHandlersFinished);
    return { status };
  };
  /** Holds while paused; false when aborted or superseded meanwhile. */
  const unpaused = async () => {
    if (s.paused) {
      show('Paused', 'paused: waiting to be resumed');
      await condition(() => !s.paused || stopping());
    }
    return !stopping();
  };
  /**
   * Halts (notified; the deployed waves rolled back when the plan says so) until resumed; false when aborted or
   * superseded. A rollback commit refused because the rollout was superseded meanwhile is not made: the newer rollout
   * moves those tenants on.
   */
  const halt = async (reason: string) => {
    s.halted = reason;
    show('Halted', `halted: ${reason}; waiting to be resumed or aborted`);
    await record({ action: 'rollout.halt', actor: SYSTEM, reason, waveState: 'Failed', event: 'rollout.halted' });
    if (input.rollbackOnHalt && s.promotions.length > 0) {
      const request = await acts.prepareRolloutRollback({ rolloutId: input.rolloutId, workflowId, reason });
      const sha =
        request &&
        (await commitOnGitQueue(request, input.gitTaskQueue).then(
          (made) => made.sha,
          (err: unknown) => {
            if (superseded) return null;
            throw err;
          },
        ));
      if (sha) {
        await record({
          action: 'rollout.rollback',
          actor: SYSTEM,
          reason: `${reason}; rolled back in ${sha}`,
          waveState: 'RolledBack',
        });
      }
      s.promotions = [];
      s.rolledBack = true;
    }
    await condition(() => s.halted === null || stopping());
    if (s.rolledBack) {
      Object.assign(s, { wave: 0, phase: 'gate', attempts: 0, approvals: [], rolledBack: false });
    }
    return !stopping();
  };

  while (s.wave < waves.length) {
    const wave = waves[s.wave]!;
    const place = `wave ${s.wave + 1} (${wave.name})`;
    if (stopping()) return stop();
    if (s.phase === 'gate') {
      if (!(await unpaused())) return stop();
      if (wave.gatePolicies.length > 0 && !quorum(wave.gatePolicies, s.approvals).met) {
        show('AwaitingApproval', approvalsDetails(wave.gatePolicies, s.approvals));
        await record({ action: 'rollout.wave.gate', actor: SYSTEM, waveState: 'AwaitingApproval' });
        await condition(() => quorum(wave.gatePolicies, s.approvals).met || stopping());
        if (stopping()) return stop();
      }
      s.phase = 'deploy';
    }
    if (s.phase === 'deploy') {
      if (!(await unpaused())) return stop();
      s.attempts += 1;
      show(
        'Running',
        `deploying: promotion of ${wave.tenants.length} tenant(s), then their Synced and Healthy reports`,
      );
      const started = await acts.startRolloutWave({ rolloutId: input.rolloutId, wave: s.wave, attempt: s.attempts });
      // Superseded meanwhile, the activity started nothing (a wave it did start is refused at its commit).
      if (started === null && superseded) return stop();
      if (started === null) {
        await record({ action: 'rollout.wave.skip', actor: SYSTEM, waveState: 'Skipped', reason: 'nothing to move' });
      } else {
        s.promotions.push({ wave: s.wave, promotionId: started.promotionId });
        const child = await executeChild(promotionWorkflow, {
          workflowId: started.workflowId,
          taskQueue: workflowInfo().taskQueue,
          args: [
            {
              promotionId: started.promotionId,
              organizationId: input.organizationId,
              projectId: input.projectId,
              requester: input.requester,
              gitTaskQueue: input.gitTaskQueue,
              timing: input.promotionTiming,
            },
          ],
          ...childDescription(
            { organizationId: input.organizationId, projectId: input.projectId, environment: input.environment },
            `promote ${input.sourceEnvironment} -> ${input.environment}, rollout ${place}`,
            {
              searchAttributes: [{ key: SEARCH_ATTRIBUTES.resourceStatus, value: 'Evaluating' }],
              details: `Promotion \`${started.promotionId}\` of rollout \`${input.rolloutId}\``,
            },
          ),
        });
        // Superseded while the wave deployed: no halt (its commit may have been refused for it), no further wave.
        if (superseded) return stop();
        if (child.status !== 'Healthy') {
          if (!(await halt(`${place}: its promotion ended ${child.status}`))) return stop();
          continue;
        }
      }
      if (wave.soakSeconds > 0) {
        soakOpen = true;
        await record({
          action: 'rollout.wave.soak',
          actor: SYSTEM,
          waveState: 'Soaking',
          promotionId: started?.promotionId,
        });
      }
      // Counted from after its entry: the audit trail never shows a soak shorter than the plan's.
      s.phase = 'soak';
      s.soakEndsAt = Date.now() + wave.soakSeconds * 1000;
    }
    if (s.phase === 'soak') {
      const endsAt = s.soakEndsAt ?? Date.now();
      while (Date.now() < endsAt && !skipSoak && !stopping()) {
        if (tooLong()) return carryOn();
        show(status === 'Paused' ? 'Paused' : 'Running', `soaking until ${new Date(endsAt).toISOString()}`);
        await condition(() => skipSoak || stopping(), endsAt - Date.now());
      }
      if (stopping()) return stop();
      skipSoak = false;
      soakOpen = false;
      s.phase = 'verify';
      s.progress = wave.checks.map(() => ({ taken: 0, failed: 0 }));
    }
    if (s.phase === 'verify') {
      let failed: string | null = null;
      for (const [i, check] of wave.checks.entries()) {
        const progress = s.progress[i] ?? { taken: 0, failed: 0 };
        while (failed === null && progress.taken < check.count) {
          if (tooLong()) return carryOn();
          if (!(await unpaused())) return stop();
          show(
            'Running',
            `verifying ${check.name}: ${progress.taken} of ${check.count} measured, ${progress.failed} failed`,
          );
          if (progress.taken > 0) await sleep(check.intervalSeconds * 1000);
          const measurement = await measureCheck({
            check,
            context: {
              orgId: input.organizationId,
              projectSlug: input.projectSlug,
              environment: input.environment,
              tenants: wave.tenants,
              namespaces: wave.namespaces,
              version: input.version,
            },
          });
          progress.taken += 1;
          if (!measurement.passed) progress.failed += 1;
          s.progress[i] = progress;
          await record({ action: 'rollout.wave.measure', actor: SYSTEM, waveState: 'Verifying', measurement });
          if (progress.failed > check.failureLimit) {
            failed = `${place}: check ${check.name} failed ${progress.failed} of ${progress.taken} measurements`;
          }
        }
      }
      if (failed !== null) {
        s.progress = wave.checks.map(() => ({ taken: 0, failed: 0 }));
        if (!(await halt(failed))) return stop();
        continue;
      }
      const reason = `${place} verified`;
      await record({
        action: 'rollout.wave.verify',
        actor: SYSTEM,
        waveState: 'Verified',
        reason,
        event: 'rollout.wave.verified',
      });
      Object.assign(s, { wave: s.wave + 1, phase: 'gate', soakEndsAt: null, progress: [], attempts: 0, approvals: [] });
    }
  }
  if (superseded) return stop();
  return end('Completed', SYSTEM, 'rollout.complete', 'every wave verified', 'rollout.completed');
}
