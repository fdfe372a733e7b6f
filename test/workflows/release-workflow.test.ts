// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import type { createActivities } from '../../activities';
import type { GitActivities } from '../../activities/git';
import { COMMIT_RETRY } from '../../workflows/git-commit';
import type { AuditActor } from '../../src/audit/types';
import {
  RELEASE_FAILURE,
  approveReleaseUpdate,
  cancelReleaseUpdate,
  deployReleaseUpdate,
  rejectReleaseUpdate,
  releaseStateQuery,
  reportSyncUpdate,
  targetFreedSignal,
  type ApprovalPolicySnapshot,
  type PreparedRelease,
  type ReleaseWorkflowInput,
} from '../../src/releases/release-workflow-contract';
import type { SyncReport } from '../../src/deployments/sync-report';
import { releaseWorkflow } from '../../workflows/release';
import { localActivityMarker } from '../../src/temporal/local-activity-marker';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { answerMeetsRunCap, heldActivity, untilCalled } from '../helpers/held-activity';
import { RUN_EVENT_CAP } from '../../workflows/lib/wait-until-clear';
import { cancelAtRunCap } from '../helpers/at-run-cap';
import { updateRefusal as refusal } from '../helpers/update-refusal';
import { historyKeeper } from '../helpers/workflow-histories';
import { eventually } from '../helpers/net';

/**
 * The release workflow's logic on the time-skipping server with stub activities typed from the real ones: approvals
 * and their refusals, manual deploy, the queue, sync outcomes, and the day-long timers (approval expiry, sync
 * timeout) in milliseconds. Each path's history is kept under test/workflows/fixtures/release-histories (rewritten
 * with UPDATE_RELEASE_HISTORIES=1) for the replay test, which runs them against the current code.
 */
type ReleaseActivities = Pick<
  ReturnType<typeof createActivities>,
  | 'prepareRelease'
  | 'transitionRelease'
  | 'finishRelease'
  | 'recordReleaseDecision'
  | 'acquireReleaseTarget'
  | 'checkReleaseFreezes'
  | 'takeReleaseTurn'
  | 'markReleaseCommitted'
  | 'recordReleaseSync'
  | 'noteReleaseCommitWait'
> &
  Pick<GitActivities, 'commitToRepository'>;

const HISTORY_DIR = path.join(__dirname, 'fixtures', 'release-histories');
const SHA = 'a'.repeat(40);
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
  environments: [],
  tenantIds: null,
  enabled: true,
  name: 'prod needs one',
  requiredApprovals: 1,
  eligibleApprovers: { roles: ['admin'], teams: [], users: [] },
  allowSelfApproval: false,
  expiresAfterMinutes: 120,
};

let prepared: PreparedRelease;
let turnsUntilAcquired = 0;
let frozenChecks = 0;
/** Holds the final activity open: the window between an accepted cancel and its final status. */
const finishHeld = heldActivity();
/**
 * Holds the row's turn to a waiting status (PendingApproval, AwaitingDeploy) open: the window where the row says so and
 * the workflow not yet.
 */
const pendingHeld = heldActivity();
/**
 * Holds the first freeze check whose answer finds the run at the continue-as-new cap (armed by the test that needs
 * it): the window in which that run decides to continue as new.
 */
const atCapHeld = heldActivity();
let holdAtCap = false;
/** What markReleaseCommitted finds already reported (a fast controller), for the test that needs it. */
let reportedBeforeNoted: SyncReport | null = null;
const calls: string[] = [];
/** How many commit attempts fail through the infrastructure (a full disk) before one lands. */
let outageAttempts = 0;

function stubs(): ReleaseActivities {
  const activities: ReleaseActivities = {
    // As the real one: asked with `turnFor`, a release with nothing to wait for takes its freeze check and turn too.
    prepareRelease: async (i) => {
      calls.push('prepare');
      const clear = !prepared.blocked && prepared.approvalPolicies.length === 0 && prepared.autoDeploy;
      return i.turnFor && clear
        ? { ...prepared, turn: await activities.takeReleaseTurn({ ...i, actor: i.turnFor }) }
        : prepared;
    },
    transitionRelease: async (i) => {
      calls.push(`status ${i.to}`);
      if (i.to === 'PendingApproval' || i.to === 'AwaitingDeploy') await pendingHeld.passage();
    },
    finishRelease: async (i) => {
      calls.push(`end ${i.to}`);
      await finishHeld.passage();
      return { next: null };
    },
    recordReleaseDecision: async (i) => void calls.push(`${i.decision} ${i.actor.actor}`),
    acquireReleaseTarget: async () => {
      calls.push('acquire');
      if (turnsUntilAcquired > 0) {
        turnsUntilAcquired -= 1;
        return { acquired: false, behind: 'other-release' };
      }
      return { acquired: true, behind: null };
    },
    checkReleaseFreezes: async () => {
      if (frozenChecks === 0) return { freezes: [], reason: null, clearsAt: null };
      frozenChecks -= 1;
      calls.push('frozen');
      if (holdAtCap && (await answerMeetsRunCap(ts.env.client, RUN_EVENT_CAP))) {
        holdAtCap = false;
        calls.push('freeze check at the cap');
        await atCapHeld.passage();
      }
      // The freeze ends at once: the workflow looks again right away.
      return { freezes: [], reason: 'frozen by Launch (launch week)', clearsAt: Date.now() };
    },
    markReleaseCommitted: async () => {
      calls.push('committed');
      return reportedBeforeNoted;
    },
    recordReleaseSync: async (i) => void calls.push(`sync ${i.report.healthStatus}`),
    noteReleaseCommitWait: async (i) => void calls.push(`note ${i.note}`),
    commitToRepository: async (request) => {
      calls.push(`commit ${request.idempotencyKey}`);
      if (outageAttempts > 0) {
        outageAttempts -= 1;
        throw new Error('ENOSPC: no space left on device');
      }
      // A group of a release in service order commits `1111...`, `2222...` (one commit per group).
      const group = /-group-(\d)$/.exec(request.idempotencyKey)?.[1];
      return { sha: group ? group.repeat(40) : SHA, created: true, auditIds: [], remote: false };
    },
    // As the real one: the freeze check, then the turn when no freeze holds.
    takeReleaseTurn: async (i) => {
      const freeze = await activities.checkReleaseFreezes(i);
      return { freeze, turn: freeze.reason === null ? await activities.acquireReleaseTarget(i) : null };
    },
  };
  return activities;
}

function input(): ReleaseWorkflowInput {
  return {
    releaseId: randomUUID(),
    organizationId: 'org-1',
    projectId: 'project-1',
    tenantId: 'tenant-1',
    environment: 'prod',
    requester,
    gitTaskQueue: ts.taskQueue,
    timing: { syncTimeoutMs: 6 * 3_600_000, queuePollMs: 30_000 },
  };
}

function preparedWith(changes: Partial<PreparedRelease> = {}): PreparedRelease {
  return {
    blocked: false,
    blockReason: null,
    digest: 'd'.repeat(64),
    approvalPolicies: [],
    autoDeploy: true,
    changes: [{ workload: 'web', tag: '1.2.3' }],
    tenantSlug: 'acme',
    projectSlug: 'shop',
    ...changes,
  };
}

async function start(name: string) {
  calls.length = 0;
  const args = input();
  const handle = await ts.env.client.workflow.start(releaseWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `release-${name}-${args.releaseId}`,
    args: [args],
  });
  return Object.assign(handle, { releaseId: args.releaseId });
}

/** Waits for a status; a commit outlasting an outage's first attempts takes its retries' real seconds first. */
async function until(handle: WorkflowHandle<typeof releaseWorkflow>, status: string) {
  await eventually(
    async () => (await handle.query(releaseStateQuery)).status === status,
    20_000,
    `release reaching ${status}`,
  );
}

/** Keeps the history of one path for the replay test (only when asked). */
const keep = historyKeeper(HISTORY_DIR, 'UPDATE_RELEASE_HISTORIES');

const approver = (name: string, role: 'admin' | 'member' = 'admin') => ({
  approver: { userId: `user-${name}`, role, teamIds: [] },
  actor: person(name),
});

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs());

describe('release workflow', () => {
  it('goes through approvals (refusing self, ineligible and repeated approvers) and a manual deploy to Healthy', async () => {
    prepared = preparedWith({ approvalPolicies: [policy], autoDeploy: false });
    const h = await start('approved');
    await until(h, 'PendingApproval');
    const deployEarly = refusal(h.executeUpdate(deployReleaseUpdate, { args: [{ actor: person('bob') }] }));
    expect(await deployEarly).toBe(RELEASE_FAILURE.notAwaitingDeploy);
    const self = await refusal(
      h.executeUpdate(approveReleaseUpdate, { args: [{ approver: approver('ann').approver, actor: requester }] }),
    );
    expect(self).toBe(RELEASE_FAILURE.selfApproval);
    expect(await refusal(h.executeUpdate(approveReleaseUpdate, { args: [approver('mo', 'member')] }))).toBe(
      RELEASE_FAILURE.notEligible,
    );
    expect(await h.executeUpdate(approveReleaseUpdate, { args: [approver('bob')] })).toEqual({
      status: 'AwaitingDeploy',
    });
    expect(await refusal(h.executeUpdate(approveReleaseUpdate, { args: [approver('bob')] }))).toBe(
      RELEASE_FAILURE.notAwaitingApproval,
    );
    expect((await h.executeUpdate(deployReleaseUpdate, { args: [{ actor: person('cy') }] })).status).toMatch(
      /Deploying|Syncing/,
    );
    await until(h, 'Syncing');
    expect(
      await refusal(
        h.executeUpdate(reportSyncUpdate, {
          args: [{ revision: 'b'.repeat(40), syncStatus: 'Synced', healthStatus: 'Healthy', actor: person('ops') }],
        }),
      ),
    ).toBe(RELEASE_FAILURE.revisionMismatch);
    const healthy = await h.executeUpdate(reportSyncUpdate, {
      args: [{ revision: SHA, syncStatus: 'Synced', healthStatus: 'Healthy', actor: person('ops') }],
    });
    expect(healthy).toEqual({ status: 'Healthy' });
    expect(await h.result()).toEqual({ status: 'Healthy' });
    expect(calls).toEqual([
      'prepare',
      'status PendingApproval',
      'approve bob@example.test',
      'status AwaitingDeploy',
      'acquire',
      `commit release-${h.releaseId}-1`,
      'committed',
      'sync Healthy',
      'end Healthy',
    ]);
    await keep('approved-manual-deploy', h);
  });

  it('ends Rejected on a rejection and Expired when no approval comes before the policy expiry', async () => {
    prepared = preparedWith({ approvalPolicies: [policy] });
    const rejected = await start('rejected');
    await until(rejected, 'PendingApproval');
    expect(
      await rejected.executeUpdate(rejectReleaseUpdate, { args: [{ ...approver('bob'), comment: 'not now' }] }),
    ).toEqual({ status: 'Rejected' });
    await keep('rejected', rejected);

    const expiring = await start('expired');
    expect(await expiring.result()).toEqual({ status: 'Expired' });
    expect(calls).toEqual(['prepare', 'status PendingApproval', 'end Expired']);
    await keep('expired', expiring);
  });

  it('ends Blocked without a commit when preparation blocks', async () => {
    prepared = preparedWith({ blocked: true, blockReason: 'validation: 1 error(s)' });
    const handle = await start('blocked');
    expect(await handle.result()).toEqual({ status: 'Blocked' });
    expect(calls).toEqual(['prepare', 'end Blocked']);
    await keep('blocked', handle);
  });

  it('waits its turn in the queue, commits when signalled, and fails after the sync timeout', async () => {
    prepared = preparedWith();
    turnsUntilAcquired = 1;
    const handle = await start('queued');
    await handle.signal(targetFreedSignal);
    expect(await handle.result()).toEqual({ status: 'Failed' });
    expect(calls.filter((c) => c === 'acquire')).toHaveLength(2);
    expect(calls.at(-1)).toBe('end Failed');
    await keep('queued-sync-timeout', handle);
  });

  it('refuses an approval (409 type) that arrives after a cancel was accepted, before the release ends', async () => {
    prepared = preparedWith({ approvalPolicies: [{ ...policy, requiredApprovals: 2 }] });
    const h = await start('approve-after-cancel');
    await until(h, 'PendingApproval');
    finishHeld.hold();
    try {
      const cancel = await h.startUpdate(cancelReleaseUpdate, {
        args: [{ actor: person('bob') }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      await untilCalled(calls, 'end Cancelled');
      expect(await refusal(h.executeUpdate(approveReleaseUpdate, { args: [approver('cy')] }))).toBe(
        RELEASE_FAILURE.finished,
      );
      expect(await refusal(h.executeUpdate(rejectReleaseUpdate, { args: [{ ...approver('di'), comment: 'x' }] }))).toBe(
        RELEASE_FAILURE.finished,
      );
      finishHeld.release();
      expect(await cancel.result()).toEqual({ status: 'Cancelled' });
    } finally {
      finishHeld.release();
    }
    expect(calls).toEqual(['prepare', 'status PendingApproval', 'end Cancelled']);
  });

  it('cancels before the commit, and refuses a cancel once committed', async () => {
    prepared = preparedWith({ autoDeploy: false });
    const cancelled = await start('cancelled');
    await until(cancelled, 'AwaitingDeploy');
    expect(await cancelled.executeUpdate(cancelReleaseUpdate, { args: [{ actor: person('bob') }] })).toEqual({
      status: 'Cancelled',
    });
    expect(calls).toEqual(['prepare', 'status AwaitingDeploy', 'end Cancelled']);
    await keep('cancelled', cancelled);

    prepared = preparedWith();
    const committed = await start('late-cancel');
    await until(committed, 'Syncing');
    expect(await refusal(committed.executeUpdate(cancelReleaseUpdate, { args: [{ actor: person('bob') }] }))).toBe(
      RELEASE_FAILURE.notCancellable,
    );
    await committed.terminate('test over');
  });

  it('validates and takes its turn in one local activity when nothing waits between them; after an approval, two', async () => {
    /** The local activities a release ran, in order (the time-skipping server has no reverse history for its timeline). */
    const steps = async (h: WorkflowHandle) =>
      ((await h.fetchHistory()).events ?? [])
        .map((event) => localActivityMarker(event)?.activityType)
        .filter((type) => type !== undefined);
    const healthy = { args: [{ revision: SHA, syncStatus: 'Synced', healthStatus: 'Healthy', actor: person('ops') }] };
    prepared = preparedWith();
    const clear = await start('clear');
    await until(clear, 'Syncing');
    await clear.executeUpdate(reportSyncUpdate, healthy as never);
    expect(await clear.result()).toEqual({ status: 'Healthy' });
    expect((await steps(clear)).slice(0, 3)).toEqual(['prepareRelease', 'commitToRepository', 'markReleaseCommitted']);

    prepared = preparedWith({ approvalPolicies: [policy] });
    const gated = await start('approved');
    await until(gated, 'PendingApproval');
    await gated.executeUpdate(approveReleaseUpdate, { args: [approver('bob')] });
    await until(gated, 'Syncing');
    await gated.executeUpdate(reportSyncUpdate, healthy as never);
    expect(await gated.result()).toEqual({ status: 'Healthy' });
    expect((await steps(gated)).slice(0, 3)).toEqual(['prepareRelease', 'takeReleaseTurn', 'commitToRepository']);
  });

  it('holds its commit back while a freeze is in force, and commits once it ends', async () => {
    prepared = preparedWith();
    frozenChecks = 2;
    const handle = await start('frozen');
    await until(handle, 'Syncing');
    expect(calls).toEqual([
      'prepare',
      'frozen',
      'frozen',
      'acquire',
      `commit release-${handle.releaseId}-1`,
      'committed',
    ]);
    await handle.executeUpdate(reportSyncUpdate, {
      args: [{ revision: SHA, syncStatus: 'Synced', healthStatus: 'Healthy', actor: person('ops') }],
    });
    expect(await handle.result()).toEqual({ status: 'Healthy' });
    await keep('frozen-then-committed', handle);
  });

  it('ends Cancelled on a cancel sent while the freeze check that makes a long run continue as new is answering', async () => {
    // A freeze that ends at each look keeps the run checking until it is long. A cancel accepted while the last check
    // answered was dropped by the run continuing as new: the new run knew nothing of it.
    prepared = preparedWith();
    frozenChecks = 1_000;
    holdAtCap = true;
    atCapHeld.hold();
    try {
      const h = await start('cancelled-at-continue');
      const { cancelled, result } = await cancelAtRunCap({
        client: ts.env.client,
        handle: h,
        calls,
        heldEntry: 'freeze check at the cap',
        release: () => atCapHeld.release(),
        activity: 'checkReleaseFreezes',
        cancel: cancelReleaseUpdate,
        request: { actor: person('bob') },
      });
      expect([cancelled, result]).toEqual([{ status: 'Cancelled' }, { status: 'Cancelled' }]);
      expect(calls.slice(-2)).toEqual(['freeze check at the cap', 'end Cancelled']);
      await keep('cancelled-at-continue', h);
    } finally {
      atCapHeld.release();
      holdAtCap = false;
      frozenChecks = 0;
    }
  }, 120_000);

  it('ends Healthy without waiting when the controller reported before the commit was noted', async () => {
    prepared = preparedWith();
    reportedBeforeNoted = { revision: SHA, syncStatus: 'Synced', healthStatus: 'Healthy', actor: person('controller') };
    try {
      const handle = await start('reported-before-noted');
      expect(await handle.result()).toEqual({ status: 'Healthy' });
      expect(calls.slice(-2)).toEqual(['committed', 'end Healthy']);
      await keep('reported-before-noted', handle);
    } finally {
      reportedBeforeNoted = null;
    }
  });

  it('ends Failed on a degraded health report', async () => {
    prepared = preparedWith();
    const handle = await start('degraded');
    await until(handle, 'Syncing');
    const outcome = await handle.executeUpdate(reportSyncUpdate, {
      args: [{ revision: SHA, syncStatus: 'Synced', healthStatus: 'Degraded', actor: person('ops') }],
    });
    expect(outcome).toEqual({ status: 'Failed' });
    await keep('degraded', handle);
  });

  it('waits out a Git storage outage longer than its first commit attempts, saying so, and commits once', async () => {
    prepared = preparedWith();
    outageAttempts = COMMIT_RETRY.maximumAttempts + 2;
    const handle = await start('outage');
    const details = async () =>
      ((await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string }).currentDetails ?? '';
    const waiting =
      /^commit waiting for the Git volume: .*ENOSPC: no space left on device, retrying since \d{4}-\d\d-\d\dT/;
    await eventually(async () => waiting.test(await details()));
    await until(handle, 'Syncing');
    // The row says so too (the API, the page and --wait read it), once, before the commit's record clears it.
    const notes = calls.filter((c) => c.startsWith('note '));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.slice('note '.length)).toMatch(waiting);
    expect(calls.indexOf(notes[0]!)).toBeLessThan(calls.indexOf('committed'));
    const outcome = await handle.executeUpdate(reportSyncUpdate, {
      args: [{ revision: SHA, syncStatus: 'Synced', healthStatus: 'Healthy', actor: person('controller') }],
    });
    expect(outcome).toEqual({ status: 'Healthy' });
    const commits = calls.filter((c) => c.startsWith('commit '));
    expect(commits).toEqual(Array(COMMIT_RETRY.maximumAttempts + 3).fill(`commit release-${handle.releaseId}-1`));
    await keep('outage-then-committed', handle);
  });

  it('accepts an approval that arrives while its row turns PendingApproval, before the workflow holds that status', async () => {
    prepared = preparedWith({ approvalPolicies: [policy] });
    pendingHeld.hold();
    try {
      const h = await start('approval-during-transition');
      await untilCalled(calls, 'status PendingApproval');
      const approval = h.executeUpdate(approveReleaseUpdate, { args: [approver('bob')] });
      pendingHeld.release();
      expect((await approval).status).not.toBe('PendingApproval');
      expect(calls.slice(1, 3)).toEqual(['status PendingApproval', 'approve bob@example.test']);
      await keep('approval-during-transition', h);
      await h.terminate('test over');
    } finally {
      pendingHeld.release();
    }
  });

  it('accepts a deploy that arrives while its row turns AwaitingDeploy, before the workflow holds that status', async () => {
    // A worker restarted in that window answered 409 (the row said AwaitingDeploy, the workflow not yet), under load.
    prepared = preparedWith({ autoDeploy: false });
    pendingHeld.hold();
    try {
      const h = await start('deploy-during-transition');
      await untilCalled(calls, 'status AwaitingDeploy');
      const deploy = h.executeUpdate(deployReleaseUpdate, { args: [{ actor: person('bob') }] });
      pendingHeld.release();
      expect((await deploy).status).toMatch(/Deploying|Syncing/);
      expect(calls.slice(1, 3)).toEqual(['status AwaitingDeploy', 'acquire']);
      await keep('deploy-during-transition', h);
      await h.terminate('test over');
    } finally {
      pendingHeld.release();
    }
  });

  describe('service order (issue 48)', () => {
    const groups = ['db-migrate', 'api', 'web'].map((workload, i) => ({
      workloads: [workload],
      changes: [{ workload, tag: '2.0.0' }],
      digest: String(i + 1).repeat(64),
    }));
    const report = (n: number, healthStatus: SyncReport['healthStatus']): SyncReport => ({
      revision: String(n).repeat(40),
      syncStatus: 'Synced',
      healthStatus,
      actor: person('controller'),
    });
    const committedAt = async (handle: WorkflowHandle<typeof releaseWorkflow>, n: number) =>
      eventually(async () => {
        const state = await handle.query(releaseStateQuery);
        return state.commitSha === String(n).repeat(40);
      });

    it('commits group by group, each after the previous one reported Synced and Healthy', async () => {
      prepared = preparedWith({ changes: groups.flatMap((g) => g.changes), groups });
      const handle = await start('service-order');
      for (const n of [1, 2, 3]) {
        await committedAt(handle, n);
        const commits = calls.filter((c) => c.startsWith('commit '));
        // The next group is not committed before this one's report.
        expect(commits).toEqual([1, 2, 3].slice(0, n).map((k) => `commit release-${handle.releaseId}-group-${k}`));
        await handle.executeUpdate(reportSyncUpdate, { args: [report(n, 'Healthy')] });
      }
      expect(await handle.result()).toEqual({ status: 'Healthy' });
      expect(calls.filter((c) => c === 'committed')).toHaveLength(3);
      await keep('service-order', handle);
    });

    it('stops at a Degraded group without committing the next', async () => {
      prepared = preparedWith({ changes: groups.flatMap((g) => g.changes), groups });
      const handle = await start('service-order-degraded');
      await committedAt(handle, 1);
      expect(await handle.executeUpdate(reportSyncUpdate, { args: [report(1, 'Degraded')] })).toEqual({
        status: 'Failed',
      });
      expect(calls.filter((c) => c.startsWith('commit '))).toEqual([`commit release-${handle.releaseId}-group-1`]);
      await keep('service-order-degraded', handle);
    });
  });
});
