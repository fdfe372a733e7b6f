// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import path from 'node:path';
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import type { createActivities } from '../../activities';
import type { GitActivities } from '../../activities/git';
import { COMMIT_RETRY } from '../../workflows/git-commit';
import type { AuditActor } from '../../src/audit/types';
import type { ApprovalPolicySnapshot } from '../../src/releases/release-workflow-contract';
import {
  PROMOTION_FAILURE,
  approvePromotionUpdate,
  cancelPromotionUpdate,
  promotionStateQuery,
  reportPromotionSyncUpdate,
  type Cause,
  type Evaluation,
  type PromotionSyncReport,
  type PromotionWorkflowInput,
} from '../../src/promotions/promotion-workflow-contract';
import { promotionWorkflow } from '../../workflows/promotion';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { answerMeetsRunCap, heldActivity, untilCalled } from '../helpers/held-activity';
import { RUN_EVENT_CAP } from '../../workflows/lib/wait-until-clear';
import { cancelAtRunCap } from '../helpers/at-run-cap';
import { updateRefusal as refusal } from '../helpers/update-refusal';
import { eventually } from '../helpers/net';
import { historyKeeper } from '../helpers/workflow-histories';

/**
 * The promotion workflow's logic on the time-skipping server with stub activities typed from the real ones: the
 * causes evaluated again after an approval, expiry of a promotion that stays Blocked (a day in milliseconds), cancel,
 * one commit for every tenant and the sync outcome per tenant. Each path's history is kept under
 * test/workflows/fixtures/promotion-histories (rewritten with UPDATE_PROMOTION_HISTORIES=1) for the replay test.
 */
type PromotionActivities = Pick<
  ReturnType<typeof createActivities>,
  | 'evaluatePromotion'
  | 'transitionPromotion'
  | 'recordPromotionApproval'
  | 'markPromotionCommitted'
  | 'recordPromotionSync'
  | 'notePromotionCommitWait'
> &
  Pick<GitActivities, 'commitToRepository'>;

const HISTORY_DIR = path.join(__dirname, 'fixtures', 'promotion-histories');
const SHA = 'c'.repeat(40);
const person = (name: string): AuditActor => ({
  userId: `user-${name}`,
  actorType: 'user',
  actor: `${name}@example.test`,
  requestId: null,
});
const requester = person('ann');
const policy: ApprovalPolicySnapshot = {
  id: 'policy-1',
  projectId: 'project-1',
  environments: ['prod'],
  tenantIds: null,
  enabled: true,
  name: 'prod needs one',
  requiredApprovals: 1,
  eligibleApprovers: { roles: ['admin'], teams: [], users: [] },
  allowSelfApproval: false,
  expiresAfterMinutes: null,
};
const APPROVALS: Cause = { cause: 'approvals', message: 'waiting for approvals: 0 of 1' };
const FREEZE: Cause = { cause: 'freeze', message: 'the target environment is frozen by Launch (launch week)' };

/** The causes each evaluation answers, in order; the last one repeats. */
let evaluations: Cause[][] = [];
const calls: string[] = [];
/** Holds the final activity open: the window between an accepted cancel and its final status. */
const finishHeld = heldActivity();
/** Holds an evaluation open after its row turned Blocked: the window before its answer reaches the workflow. */
const evaluationHeld = heldActivity();
/**
 * Holds the first evaluation whose answer finds the run at the continue-as-new cap (armed by the test that needs it):
 * the window in which that run decides to continue as new.
 */
const atCapHeld = heldActivity();
let holdAtCap = false;
/** A freeze's end, this long after each evaluation (server time); null: no known end. */
let freezeClearsInMs: number | null = null;

function evaluation(causes: Cause[]): Evaluation {
  const now = Context.current().info.currentAttemptScheduledTimestampMs;
  return {
    causes,
    clearsAt: freezeClearsInMs === null ? null : now + freezeClearsInMs,
    digest: 'd'.repeat(64),
    breakGlass: null,
    approvalPolicies: [policy],
    moves: [
      { tenant: 'acme', tenantId: 'tenant-1', changes: [{ workload: 'web', tag: '2.0.0' }] },
      { tenant: 'globex', tenantId: 'tenant-2', changes: [{ workload: 'web', tag: '2.1.0' }] },
    ],
    groups: serviceOrder,
    sourceEnvironment: 'staging',
    targetEnvironment: 'prod',
  };
}

/** The groups of a promotion in service order (issue 48), for the test that needs them. */
let serviceOrder: Evaluation['groups'] = undefined;

/** How many commit attempts fail through the infrastructure (a full disk) before one lands. */
let outageAttempts = 0;

/** What markPromotionCommitted finds already reported per tenant (a fast controller), for the test that needs it. */
let reportedBeforeNoted: PromotionSyncReport[] = [];

function stubs(): PromotionActivities {
  return {
    evaluatePromotion: async () => {
      const causes = evaluations.length > 1 ? evaluations.shift()! : (evaluations[0] ?? []);
      calls.push(`evaluate ${causes.map((c) => c.cause).join(',') || 'clear'}`);
      await evaluationHeld.passage();
      if (holdAtCap && (await answerMeetsRunCap(ts.env.client, RUN_EVENT_CAP))) {
        holdAtCap = false;
        calls.push('evaluation at the cap');
        await atCapHeld.passage();
      }
      return evaluation(causes);
    },
    transitionPromotion: async (i) => {
      calls.push(`status ${i.to}`);
      if (i.to === 'Cancelled') await finishHeld.passage();
    },
    recordPromotionApproval: async (i) => void calls.push(`approve ${i.actor.actor}`),
    markPromotionCommitted: async () => {
      calls.push('committed');
      return reportedBeforeNoted;
    },
    recordPromotionSync: async (i) => void calls.push(`sync ${i.report.tenant} ${i.report.healthStatus}`),
    notePromotionCommitWait: async (i) => void calls.push(`note ${i.note}`),
    commitToRepository: async (request) => {
      const op = request.operation;
      calls.push(`commit ${op.type === 'promotion' ? op.moves.map((m) => m.tenant).join('+') : op.type}`);
      if (outageAttempts > 0) {
        outageAttempts -= 1;
        throw new Error('ENOSPC: no space left on device');
      }
      // A group of a promotion in service order commits `1111...`, `2222...` (one commit per group).
      const group = /-group-(\d)$/.exec(request.idempotencyKey)?.[1];
      return { sha: group ? group.repeat(40) : SHA, created: true, auditIds: [], remote: false };
    },
  };
}

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs());

function input(): PromotionWorkflowInput {
  return {
    promotionId: randomUUID(),
    organizationId: 'org-1',
    projectId: 'project-1',
    requester,
    gitTaskQueue: ts.taskQueue,
    timing: { recheckMs: 30_000, expiryMs: 24 * 3_600_000, syncTimeoutMs: 6 * 3_600_000 },
  };
}

async function start(name: string, causes: Cause[][], expiryMs?: number) {
  calls.length = 0;
  evaluations = causes;
  const args = input();
  if (expiryMs !== undefined) args.timing.expiryMs = expiryMs;
  return ts.env.client.workflow.start(promotionWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `promotion-${name}-${args.promotionId}`,
    args: [args],
  });
}

/** Waits for a status; a commit outlasting an outage's first attempts takes its retries' real seconds first. */
async function until(handle: WorkflowHandle<typeof promotionWorkflow>, status: string) {
  await eventually(
    async () => (await handle.query(promotionStateQuery)).status === status,
    20_000,
    `promotion reaching ${status}`,
  );
}

const keep = historyKeeper(HISTORY_DIR, 'UPDATE_PROMOTION_HISTORIES');

const report = (tenant: string, healthStatus: 'Healthy' | 'Degraded', revision = SHA) => ({
  args: [{ tenant, revision, syncStatus: 'Synced' as const, healthStatus, actor: person('ops') }] as [
    { tenant: string; revision: string; syncStatus: 'Synced'; healthStatus: 'Healthy' | 'Degraded'; actor: AuditActor },
  ],
});

describe('promotion workflow', () => {
  it('waits Blocked for an approval, evaluates again, commits every tenant once and ends Healthy', async () => {
    const h = await start('approved', [[APPROVALS], []]);
    await until(h, 'Blocked');
    const self = await refusal(
      h.executeUpdate(approvePromotionUpdate, {
        args: [{ approver: { userId: requester.userId!, role: 'admin', teamIds: [] }, actor: requester }],
      }),
    );
    expect(self).toBe(PROMOTION_FAILURE.selfApproval);
    await h.executeUpdate(approvePromotionUpdate, {
      args: [{ approver: { userId: 'user-bob', role: 'admin', teamIds: [] }, actor: person('bob') }],
    });
    await until(h, 'Syncing');
    expect(await refusal(h.executeUpdate(reportPromotionSyncUpdate, report('acme', 'Healthy', 'e'.repeat(40))))).toBe(
      PROMOTION_FAILURE.revisionMismatch,
    );
    expect(await refusal(h.executeUpdate(reportPromotionSyncUpdate, report('initech', 'Healthy')))).toBe(
      PROMOTION_FAILURE.unknownTenant,
    );
    await h.executeUpdate(reportPromotionSyncUpdate, report('acme', 'Healthy'));
    expect((await h.query(promotionStateQuery)).status).toBe('Syncing');
    await h.executeUpdate(reportPromotionSyncUpdate, report('globex', 'Healthy'));
    expect(await h.result()).toEqual({ status: 'Healthy' });
    expect(calls).toEqual([
      'evaluate approvals',
      'approve bob@example.test',
      'evaluate clear',
      'status Executing',
      'commit acme+globex',
      'committed',
      'sync acme Healthy',
      'sync globex Healthy',
      'status Healthy',
    ]);
    await keep('approved', h);
  });

  it('ends Expired when a cause holds past the expiry, and Cancelled on a cancel while Blocked', async () => {
    // Ten minutes Blocked by a freeze of no known end: the re-check backs off from 30 s (at 0, 30 s, 1.5, 3.5 and
    // 7.5 min), then Expired at the expiry.
    const expired = await start('expired', [[FREEZE]], 10 * 60_000);
    expect(await expired.result()).toEqual({ status: 'Expired' });
    expect(calls.at(-1)).toBe('status Expired');
    expect(calls.filter((c) => c === 'evaluate freeze').length).toBe(5);
    await keep('expired', expired);

    const cancelled = await start('cancelled', [[FREEZE]]);
    await until(cancelled, 'Blocked');
    expect(await cancelled.executeUpdate(cancelPromotionUpdate, { args: [{ actor: person('bob') }] })).toEqual({
      status: 'Cancelled',
    });
    expect(calls).toEqual(['evaluate freeze', 'status Cancelled']);
    await keep('cancelled', cancelled);
  });

  it('refuses an approval (409 type) that arrives after a cancel was accepted, before the promotion ends', async () => {
    const h = await start('approve-after-cancel', [[APPROVALS]]);
    await until(h, 'Blocked');
    finishHeld.hold();
    try {
      const cancel = await h.startUpdate(cancelPromotionUpdate, {
        args: [{ actor: person('bob') }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      await untilCalled(calls, 'status Cancelled');
      const late = h.executeUpdate(approvePromotionUpdate, {
        args: [{ approver: { userId: 'user-cy', role: 'admin', teamIds: [] }, actor: person('cy') }],
      });
      expect(await refusal(late)).toBe(PROMOTION_FAILURE.finished);
      finishHeld.release();
      expect(await cancel.result()).toEqual({ status: 'Cancelled' });
    } finally {
      finishHeld.release();
    }
    expect(calls).toEqual(['evaluate approvals', 'status Cancelled']);
  });

  it('takes an approval sent while the evaluation that blocked it is still answering, then checks it', async () => {
    // The row turns Blocked inside the first evaluation; a person approving at once must not meet "no approval policy
    // covers this promotion" (an image-update wave's approval once did, under load).
    evaluationHeld.hold();
    const h = await start('approved-while-evaluating', [[APPROVALS], []]);
    try {
      await untilCalled(calls, 'evaluate approvals');
      const approve = (name: string, role: 'admin' | 'member') =>
        h.startUpdate(approvePromotionUpdate, {
          args: [{ approver: { userId: `user-${name}`, role, teamIds: [] }, actor: person(name) }],
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        });
      const bob = await approve('bob', 'admin');
      const dan = await approve('dan', 'member');
      evaluationHeld.release();
      // Both were accepted before the policies were known; dan, not eligible, is refused once they are.
      expect(await refusal(dan.result())).toBe(PROMOTION_FAILURE.notEligible);
      await bob.result();
    } finally {
      evaluationHeld.release();
    }
    await until(h, 'Syncing');
    await h.executeUpdate(reportPromotionSyncUpdate, report('acme', 'Healthy'));
    await h.executeUpdate(reportPromotionSyncUpdate, report('globex', 'Healthy'));
    expect(await h.result()).toEqual({ status: 'Healthy' });
    expect(calls.slice(0, 4)).toEqual([
      'evaluate approvals',
      'approve bob@example.test',
      'evaluate clear',
      'status Executing',
    ]);
    await keep('approved-while-evaluating', h);
  });

  it('ends Cancelled on a cancel sent while the evaluation that makes a long run continue as new is answering', async () => {
    // A freeze ending a millisecond after each look keeps the run evaluating until it is long. A cancel accepted while the
    // last evaluation answers once left the run waiting for its handler, and the handler for the run's end: neither
    // came (and a run that continued as new would have dropped the cancel).
    freezeClearsInMs = 1;
    holdAtCap = true;
    atCapHeld.hold();
    try {
      const h = await start('cancelled-at-continue', [[FREEZE]]);
      const { cancelled, result } = await cancelAtRunCap({
        client: ts.env.client,
        handle: h,
        calls,
        heldEntry: 'evaluation at the cap',
        release: () => atCapHeld.release(),
        activity: 'evaluatePromotion',
        cancel: cancelPromotionUpdate,
        request: { actor: person('bob') },
      });
      expect([cancelled, result]).toEqual([{ status: 'Cancelled' }, { status: 'Cancelled' }]);
      expect(calls.slice(-2)).toEqual(['evaluation at the cap', 'status Cancelled']);
      await keep('cancelled-at-continue', h);
    } finally {
      atCapHeld.release();
      holdAtCap = false;
      freezeClearsInMs = null;
    }
  }, 120_000);

  it('counts the reports found when the commit was noted, and waits only for the other tenants', async () => {
    reportedBeforeNoted = [report('acme', 'Healthy').args[0]];
    try {
      const h = await start('reported-before-noted', [[]]);
      await until(h, 'Syncing');
      await h.executeUpdate(reportPromotionSyncUpdate, report('globex', 'Healthy'));
      expect(await h.result()).toEqual({ status: 'Healthy' });
      expect(calls.filter((c) => c.startsWith('sync'))).toEqual(['sync globex Healthy']);
      await keep('reported-before-noted', h);
    } finally {
      reportedBeforeNoted = [];
    }
  });

  it('ends Failed when one tenant reports degraded health', async () => {
    const h = await start('degraded', [[]]);
    await until(h, 'Syncing');
    await h.executeUpdate(reportPromotionSyncUpdate, report('acme', 'Healthy'));
    await h.executeUpdate(reportPromotionSyncUpdate, report('globex', 'Degraded'));
    expect(await h.result()).toEqual({ status: 'Failed' });
    expect(calls.at(-1)).toBe('status Failed');
    await keep('degraded', h);
  });

  it('waits out a Git storage outage longer than its first commit attempts, saying so, and commits once', async () => {
    outageAttempts = COMMIT_RETRY.maximumAttempts + 2;
    const h = await start('outage', [[]]);
    await until(h, 'Syncing');
    await h.executeUpdate(reportPromotionSyncUpdate, report('acme', 'Healthy'));
    await h.executeUpdate(reportPromotionSyncUpdate, report('globex', 'Healthy'));
    expect(await h.result()).toEqual({ status: 'Healthy' });
    const commits = calls.filter((c) => c.startsWith('commit '));
    expect(commits).toEqual(Array(COMMIT_RETRY.maximumAttempts + 3).fill('commit acme+globex'));
    // The row said why it waited and since when (the API and the page read it), once, before the commit's record.
    const notes = calls.filter((c) => c.startsWith('note '));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^note commit waiting for the Git volume: .*ENOSPC: no space left on device, retrying since \d{4}-\d\d-\d\dT/,
    );
    expect(calls.indexOf(notes[0]!)).toBeLessThan(calls.indexOf('committed'));
    await keep('outage-then-committed', h);
  });

  it('in service order, commits group by group, each after every tenant of the previous one reported Healthy', async () => {
    const move = (tenant: string, workload: string) => ({
      tenant,
      tenantId: tenant,
      changes: [{ workload, tag: '2.0.0' }],
    });
    serviceOrder = ['api', 'web'].map((workload, i) => ({
      workloads: [workload],
      moves: [move('acme', workload), move('globex', workload)],
      digest: String(i + 1).repeat(64),
    }));
    try {
      const h = await start('service-order', [[]]);
      const commitsAt = (n: number) =>
        eventually(async () => (await h.query(promotionStateQuery)).commitSha === String(n).repeat(40));
      await commitsAt(1);
      await h.executeUpdate(reportPromotionSyncUpdate, report('acme', 'Healthy', '1'.repeat(40)));
      // One tenant of the first group is not enough: the second group waits.
      expect(calls.filter((c) => c.startsWith('commit '))).toEqual(['commit acme+globex']);
      await h.executeUpdate(reportPromotionSyncUpdate, report('globex', 'Healthy', '1'.repeat(40)));
      await commitsAt(2);
      await h.executeUpdate(reportPromotionSyncUpdate, report('acme', 'Healthy', '2'.repeat(40)));
      await h.executeUpdate(reportPromotionSyncUpdate, report('globex', 'Healthy', '2'.repeat(40)));
      expect(await h.result()).toEqual({ status: 'Healthy' });
      expect(calls.filter((c) => c.startsWith('commit ') || c === 'committed')).toEqual([
        'commit acme+globex',
        'committed',
        'commit acme+globex',
        'committed',
      ]);
      await keep('service-order', h);
    } finally {
      serviceOrder = undefined;
    }
  });
});
