// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { createActivities } from '../../activities';
import type { GitActivities } from '../../activities/git';
import type { AuditActor } from '../../src/audit/types';
import { COMMIT_FAILURE } from '../../src/gitops/commit-failure';
import type { PromotionSyncReport } from '../../src/promotions/promotion-workflow-contract';
import type { VerificationCheck } from '../../src/verification/check-spec';
import {
  ROLLOUT_FAILURE,
  abortRolloutUpdate,
  approveWaveUpdate,
  pauseRolloutUpdate,
  resumeRolloutUpdate,
  rolloutStateQuery,
  skipSoakUpdate,
  supersedeRolloutUpdate,
  type RolloutWave,
  type RolloutWorkflowInput,
} from '../../src/rollouts/rollout-workflow-contract';
import { rolloutWorkflow } from '../../workflows/rollout';
import { expectBoundedRuns, lengthSeenByLastAnswer, runHistoryLengths } from '../helpers/history-budget';
import { answerMeetsRunCap, heldActivity, untilCalled } from '../helpers/held-activity';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { updateRefusal as refusal } from '../helpers/update-refusal';
import { historiesOf } from '../helpers/workflow-histories';

/**
 * The rollout workflow's logic on the time-skipping server: each wave a child promotion workflow (the real one, over
 * stub activities), its soak, its checks (a stub measureCheck), approval gates, pause/resume/skip-soak/abort, halt on a
 * Degraded report or a failed check with one rollback commit, superseding by a newer image rollout (no further wave,
 * no rollback), and continue-as-new through a 7-day soak. Histories are
 * kept under test/workflows/fixtures/rollout-histories (UPDATE_WORKFLOW_HISTORIES=1) for the replay test.
 */
type Stubs = Pick<
  ReturnType<typeof createActivities>,
  | 'evaluatePromotion'
  | 'transitionPromotion'
  | 'recordPromotionApproval'
  | 'markPromotionCommitted'
  | 'recordPromotionSync'
  | 'notePromotionCommitWait'
  | 'startRolloutWave'
  | 'recordRolloutStep'
  | 'prepareRolloutRollback'
  | 'measureCheck'
> &
  Pick<GitActivities, 'commitToRepository'>;

const SHA = 'a'.repeat(40);
const person = (name: string): AuditActor => ({
  userId: `user-${name}`,
  actorType: 'user',
  actor: name,
  requestId: null,
});
const requester = person('ann');
const calls: string[] = [];
/** Tenants of each started wave promotion, and the health its tenants report. */
const promotions = new Map<string, string[]>();
let degraded = new Set<string>();
let measurementPasses: (check: string, n: number) => boolean = () => true;
let measured = 0;
/** Wave promotions stay Blocked by a freeze (for an hour) while true. */
let frozen = false;
/** The commit path refuses promotion commits as superseded (promotions.superseded_by set) while true. */
let refuseAsSuperseded = false;
/**
 * Holds the first measurement whose answer finds the run past this history limit (armed by the test that needs it),
 * and the abort's request entry: the windows in which a run continues as new while an abort is being accepted.
 */
let holdPastLimit: number | null = null;
const measurementHeld = heldActivity();
const abortRequestHeld = heldActivity();
/** Holds a wave's `rollout.wave.soak` entry: its row says Soaking while the workflow has not seen the answer. */
const soakEntryHeld = heldActivity();

function stubs(): Stubs {
  return {
    startRolloutWave: async ({ wave, attempt }) => {
      const tenants = currentWaves[wave]!.tenants;
      const promotionId = randomUUID();
      promotions.set(promotionId, tenants);
      calls.push(`wave ${wave + 1} start (attempt ${attempt})`);
      return { promotionId, workflowId: `promotion-${promotionId}` };
    },
    recordRolloutStep: async (step) => {
      if (step.action !== 'rollout.wave.measure')
        calls.push(`${step.action}${step.waveState ? ` ${step.waveState}` : ''}`);
      if (step.action === 'rollout.abort.request') await abortRequestHeld.passage();
      if (step.action === 'rollout.wave.soak') await soakEntryHeld.passage();
    },
    prepareRolloutRollback: async (input) => ({
      organizationId: 'org-1',
      projectId: 'project-1',
      idempotencyKey: `rollback-${input.rolloutId}`,
      workflowId: input.workflowId,
      message: 'roll back',
      actor: { ...requester, email: null },
      operation: {
        type: 'rollout-rollback',
        rolloutId: input.rolloutId,
        environment: 'prod',
        moves: [...promotions.values()]
          .flat()
          .map((t) => ({ tenant: t, tenantId: t, changes: [{ workload: 'web', tag: '1.0.0' }] })),
        digest: 'd'.repeat(64),
        reason: input.reason,
      },
    }),
    evaluatePromotion: async ({ promotionId }) => ({
      causes: frozen ? [{ cause: 'freeze', message: 'frozen: release freeze' }] : [],
      clearsAt: frozen ? Date.now() + 3_600_000 : null,
      digest: 'd'.repeat(64),
      breakGlass: null,
      approvalPolicies: [],
      moves: promotions
        .get(promotionId)!
        .map((t) => ({ tenant: t, tenantId: t, changes: [{ workload: 'web', tag: '2.0.0' }] })),
      sourceEnvironment: 'staging',
      targetEnvironment: 'prod',
    }),
    transitionPromotion: async () => undefined,
    recordPromotionApproval: async () => undefined,
    notePromotionCommitWait: async () => undefined,
    recordPromotionSync: async () => undefined,
    markPromotionCommitted: async ({ promotionId }): Promise<PromotionSyncReport[]> =>
      promotions.get(promotionId)!.map((tenant) => ({
        tenant,
        revision: SHA,
        syncStatus: 'Synced',
        healthStatus: degraded.has(tenant) ? 'Degraded' : 'Healthy',
        actor: person('controller'),
      })),
    commitToRepository: async (request) => {
      const op = request.operation;
      if (refuseAsSuperseded && op.type === 'promotion') {
        calls.push('commit refused: superseded');
        throw ApplicationFailure.nonRetryable('its image rollout was superseded', COMMIT_FAILURE.superseded);
      }
      calls.push(`commit ${op.type} ${'moves' in op ? op.moves.map((m) => m.tenant).join('+') : ''}`);
      return { sha: SHA, created: true, auditIds: [], remote: false };
    },
    measureCheck: async ({ check }) => {
      measured += 1;
      if (holdPastLimit !== null && (await answerMeetsRunCap(ts.env.client, holdPastLimit + 1))) {
        holdPastLimit = null;
        calls.push('measurement past the limit');
        await measurementHeld.passage();
      }
      return {
        check: check.name,
        at: new Date().toISOString(),
        value: 0,
        passed: measurementPasses(check.name, measured),
      };
    },
  };
}

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs());
const { keep } = historiesOf('rollout');

const check = (count: number, failureLimit = 0, intervalSeconds = 60): VerificationCheck => ({
  kind: 'http',
  name: 'health',
  url: 'https://status.example.test/{{tenants}}',
  intervalSeconds,
  count,
  failureLimit,
});
const wave = (name: string, tenants: string[], extra: Partial<RolloutWave> = {}): RolloutWave => ({
  name,
  selection: `tenants ${tenants.join(', ')}`,
  tenants,
  namespaces: tenants.map((t) => `${t}-prod`),
  soakSeconds: 3600,
  checks: [],
  approvalGate: false,
  gatePolicies: [],
  ...extra,
});
const gate = {
  id: 'rollout-gate',
  name: 'rollout wave gate',
  projectId: 'project-1',
  environments: [],
  tenantIds: null,
  requiredApprovals: 1,
  eligibleApprovers: { roles: ['member' as const], teams: [], users: [] },
  allowSelfApproval: false,
  expiresAfterMinutes: null,
  enabled: true,
};
let currentWaves: RolloutWave[] = [];

async function start(name: string, waves: RolloutWave[], rollbackOnHalt = false, historyLimit = 1_500) {
  calls.length = 0;
  promotions.clear();
  degraded = new Set();
  measurementPasses = () => true;
  measured = 0;
  frozen = false;
  refuseAsSuperseded = false;
  currentWaves = waves;
  const rolloutId = randomUUID();
  const input: RolloutWorkflowInput = {
    rolloutId,
    organizationId: 'org-1',
    projectId: 'project-1',
    projectSlug: 'shop',
    sourceEnvironment: 'staging',
    environment: 'prod',
    version: '2.0.0',
    requester,
    waves,
    rollbackOnHalt,
    gitTaskQueue: ts.taskQueue,
    promotionTiming: { recheckMs: 30_000, expiryMs: 24 * 3_600_000, syncTimeoutMs: 6 * 3_600_000 },
    historyLimit,
  };
  return ts.env.client.workflow.start(rolloutWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `rollout-${name}-${rolloutId}`,
    args: [input],
  });
}

async function until(
  h: WorkflowHandle<typeof rolloutWorkflow>,
  done: (s: { status: string; phase: string; wave: number }) => boolean,
) {
  for (let i = 0; i < 400; i += 1) {
    const state = await h.query(rolloutStateQuery);
    if (done(state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`rollout never got there: ${JSON.stringify(await h.query(rolloutStateQuery))}`);
}
const why = (reason: string) => ({
  args: [{ actor: person('ops'), reason }] as [{ actor: AuditActor; reason: string }],
});
const NEWER = 'f0000000-0000-4000-8000-000000000002';
const supersede = {
  args: [{ actor: person('ci'), by: NEWER, reason: `superseded by rollout ${NEWER} (image web 2.1.0)` }] as [
    { actor: AuditActor; by: string; reason: string },
  ],
};

describe('rollout workflow', () => {
  it('deploys, soaks and verifies wave by wave, in order, and completes', async () => {
    const h = await start('completed', [
      wave('canary', ['t1']),
      wave('half', ['t2', 't3'], { checks: [check(3)] }),
      wave('rest', ['t4', 't5', 't6'], { soakSeconds: 0 }),
    ]);
    expect(await h.result()).toEqual({ status: 'Completed' });
    expect(calls).toEqual([
      'wave 1 start (attempt 1)',
      'commit promotion t1',
      'rollout.wave.soak Soaking',
      'rollout.wave.verify Verified',
      'wave 2 start (attempt 1)',
      'commit promotion t2+t3',
      'rollout.wave.soak Soaking',
      'rollout.wave.verify Verified',
      'wave 3 start (attempt 1)',
      'commit promotion t4+t5+t6',
      'rollout.wave.verify Verified',
      'rollout.complete',
    ]);
    expect(measured).toBe(3);
    await keep('completed', h);
  });

  it('halts on a Degraded report, rolls waves 1-2 back in one commit, and ends Aborted when aborted', async () => {
    const h = await start(
      'degraded-rolled-back',
      [wave('one', ['t1'], { soakSeconds: 0 }), wave('two', ['t2', 't3']), wave('three', ['t4'])],
      true,
    );
    degraded = new Set(['t3']);
    const halted = await until(h, (s) => s.status === 'Halted' && calls.includes('rollout.rollback RolledBack'));
    expect(halted.phase).toBe('deploy');
    expect(calls.filter((c) => c.startsWith('commit'))).toEqual([
      'commit promotion t1',
      'commit promotion t2+t3',
      'commit rollout-rollback t1+t2+t3',
    ]);
    expect(calls).toContain('rollout.halt Failed');
    expect(await refusal(h.executeUpdate(skipSoakUpdate, why('no')))).toBe(ROLLOUT_FAILURE.notSoaking);
    await h.executeUpdate(abortRolloutUpdate, why('bad version'));
    expect(await h.result()).toEqual({ status: 'Aborted' });
    expect(calls.at(-1)).toBe('rollout.abort');
    await keep('degraded-rolled-back', h);
  });

  it('waits at an approval gate for another member; pause, resume and skip-soak steer it', async () => {
    const h = await start('gated', [
      wave('one', ['t1']),
      wave('two', ['t2'], { approvalGate: true, gatePolicies: [gate] }),
    ]);
    await until(h, (s) => s.phase === 'soak');
    await h.executeUpdate(pauseRolloutUpdate, why('lunch'));
    expect(await refusal(h.executeUpdate(pauseRolloutUpdate, why('again')))).toBe(ROLLOUT_FAILURE.notPausable);
    await h.executeUpdate(skipSoakUpdate, why('confident'));
    await until(h, (s) => s.status === 'Paused' && s.phase === 'gate');
    await h.executeUpdate(resumeRolloutUpdate, why('back'));
    await until(h, (s) => s.status === 'AwaitingApproval');
    const self = { approver: { userId: requester.userId!, role: 'admin' as const, teamIds: [] }, actor: requester };
    expect(await refusal(h.executeUpdate(approveWaveUpdate, { args: [self] }))).toBe(ROLLOUT_FAILURE.selfApproval);
    const bob = { approver: { userId: 'user-bob', role: 'member' as const, teamIds: [] }, actor: person('bob') };
    await h.executeUpdate(approveWaveUpdate, { args: [bob] });
    expect(await h.result()).toEqual({ status: 'Completed' });
    expect(calls).toEqual([
      'wave 1 start (attempt 1)',
      'commit promotion t1',
      'rollout.wave.soak Soaking',
      'rollout.pause',
      'rollout.soak.skip',
      'rollout.wave.verify Verified',
      'rollout.resume',
      'rollout.wave.gate AwaitingApproval',
      'rollout.wave.approve',
      'wave 2 start (attempt 1)',
      'commit promotion t2',
      'rollout.wave.soak Soaking',
      'rollout.wave.verify Verified',
      'rollout.complete',
    ]);
    await keep('gated', h);
  });

  it('accepts a skip-soak sent while the soak entry is being recorded, and records it after that entry', async () => {
    // The API reads Soaking from the row the entry's activity wrote; the workflow may not have its answer yet.
    soakEntryHeld.hold();
    try {
      const h = await start('skip-at-soak-entry', [wave('one', ['t1']), wave('two', ['t2'], { soakSeconds: 0 })]);
      await untilCalled(calls, 'rollout.wave.soak Soaking');
      const skip = await h.startUpdate(skipSoakUpdate, {
        ...why('confident'),
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      soakEntryHeld.release();
      await skip.result();
      // The hour's soak was skipped (queries skip no time): wave two deploys.
      await until(h, (s) => s.wave === 1);
      expect(await h.result()).toEqual({ status: 'Completed' });
      expect(calls.slice(0, 5)).toEqual([
        'wave 1 start (attempt 1)',
        'commit promotion t1',
        'rollout.wave.soak Soaking',
        'rollout.soak.skip',
        'rollout.wave.verify Verified',
      ]);
      await keep('skip-at-soak-entry', h);
    } finally {
      soakEntryHeld.release();
    }
  });

  it('halts when a check fails past its limit and verifies again when resumed', async () => {
    const h = await start('check-failed', [wave('one', ['t1'], { soakSeconds: 0, checks: [check(4, 1, 0)] })]);
    measurementPasses = (_c, n) => n !== 2 && n !== 3;
    await until(h, (s) => s.status === 'Halted');
    expect(measured).toBe(3);
    measurementPasses = () => true;
    await h.executeUpdate(resumeRolloutUpdate, why('fixed the exporter'));
    expect(await h.result()).toEqual({ status: 'Completed' });
    expect(measured).toBe(7);
    expect(calls.filter((c) => c.startsWith('commit'))).toEqual(['commit promotion t1']);
    await keep('check-failed', h);
  });

  it('ends Superseded when a newer image rollout supersedes it while soaking: no further wave, nothing rolled back', async () => {
    const h = await start('superseded', [wave('one', ['t1']), wave('two', ['t2'])], true);
    await until(h, (s) => s.phase === 'soak');
    expect(await h.executeUpdate(supersedeRolloutUpdate, supersede)).toEqual({ status: 'Superseded', wave: 0 });
    expect(await h.result()).toEqual({ status: 'Superseded' });
    expect(calls).toEqual([
      'wave 1 start (attempt 1)',
      'commit promotion t1',
      'rollout.wave.soak Soaking',
      'rollout.supersede',
    ]);
    await keep('superseded', h);
  });

  it('superseded while its wave waits out a freeze, its refused commit ends it Superseded, not Halted', async () => {
    const h = await start('superseded-in-flight', [wave('one', ['t1']), wave('two', ['t2'])], true);
    frozen = true;
    await until(h, (s) => s.phase === 'deploy' && calls.includes('wave 1 start (attempt 1)'));
    // The Update marks the wave's promotion refused at its commit (here: the stub refuses from now on).
    refuseAsSuperseded = true;
    await h.executeUpdate(supersedeRolloutUpdate, supersede);
    expect(await refusal(h.executeUpdate(pauseRolloutUpdate, why('no')))).toBe(ROLLOUT_FAILURE.finished);
    frozen = false;
    expect(await h.result()).toEqual({ status: 'Superseded' });
    expect(calls).toEqual(['wave 1 start (attempt 1)', 'rollout.supersede', 'commit refused: superseded']);
    await keep('superseded-in-flight', h);
  });

  it('ends Aborted on an abort accepted while a long run decides to continue as new', async () => {
    // The abort's handler records its request, then marks the run aborted; a run that continued as new meanwhile
    // dropped it: the abort was answered and audited, and the rollout went on.
    const limit = 120;
    holdPastLimit = limit;
    measurementHeld.hold();
    abortRequestHeld.hold();
    try {
      const h = await start(
        'aborted-at-continue',
        [wave('one', ['t1'], { soakSeconds: 0, checks: [check(500)] })],
        false,
        limit,
      );
      const result = h.result();
      await untilCalled(calls, 'measurement past the limit', 60_000);
      const abort = await h.startUpdate(abortRolloutUpdate, {
        ...why('stop'),
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      await untilCalled(calls, 'rollout.abort.request');
      measurementHeld.release();
      abortRequestHeld.release();
      await abort.result();
      expect(await result).toEqual({ status: 'Aborted' });
      expect(calls.at(-1)).toBe('rollout.abort');
      expect(await lengthSeenByLastAnswer(h, 'measureCheck')).toBeGreaterThan(limit);
      expect(await runHistoryLengths(ts.env.client, h.workflowId)).toHaveLength(1);
      await keep('aborted-at-continue', h);
    } finally {
      measurementHeld.release();
      abortRequestHeld.release();
      holdPastLimit = null;
    }
  }, 120_000);

  it('stays under 2,000 events per run through a 7-day soak and a week of measurements', async () => {
    const week = 7 * 24 * 3600;
    const h = await start('seven-days', [wave('one', ['t1'], { soakSeconds: week, checks: [check(250, 0, 2400)] })]);
    const first = (await h.describe()).runId;
    expect(await h.result()).toEqual({ status: 'Completed' });
    await expectBoundedRuns(ts.env.client, h.workflowId, first, 'rollout through a 7-day soak');
  }, 300_000);
});
