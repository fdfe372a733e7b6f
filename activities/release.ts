// Over 400 lines: the release workflow's activities, each a short transaction on the release row under its lock
// (locked), sharing the row's audit, event and sync-recording helpers: one file keeps every transition of the row in
// view.
import { versionFacts } from '../src/releases/release-versions';
import { ApplicationFailure } from '@temporalio/activity';
import type { AuditService } from '../src/audit/audit-service';
import type { AuditActor, AuditEntryInput } from '../src/audit/types';
import type { Db, Queryable, Tx } from '../src/db/knex';
import { DOMAIN_EVENT, recordDomainEvent, type DomainEventType } from '../src/events/domain-event-repository';
import { loadProjectWith } from '../src/gitops/delivery-model';
import { movedWorkloads } from '../src/gitops/target-operation';
import type { WorkloadSources } from '../src/gitops/workload-sources';
import { pinTarget } from '../src/pins/pin-repository';
import { releasePinByDeploy } from '../src/pins/pin-release';
import { lockDeployedTarget } from '../src/deployments/report-state';
import { reportedAlready } from '../src/deployments/sync-verdict';
import { evaluateRelease, releaseGroups } from '../src/releases/release-evaluation';
import { dependencyRows } from '../src/projects/workload-repository';
import { readTogether, type RowsOf } from '../src/db/rows-together';
import {
  insertDecision,
  lockRelease,
  lockTarget,
  previousCheckedRows,
  targetLine,
  updateRelease,
  type LineEntry,
  type ReleaseRow,
} from '../src/releases/release-repository';
import type { ReleasePolicyCheck, ReleasePolicyPorts } from '../src/releases/release-policy-ports';
import {
  FINAL_STATUSES,
  HOLDING_STATUSES,
  type ApproverProfile,
  type PreparedRelease,
  type ReleaseFreezeAndTurn,
  type ReleaseFreezeCheck,
  type ReleaseTurn,
  type ReleaseStatus,
} from '../src/releases/release-workflow-contract';
import type { SyncReport } from '../src/deployments/sync-report';
import type { ValidationEngine } from '../src/validation';
import {
  breakGlassDetails,
  freezesClearAt,
  frozenMessage,
  type BreakGlassGrant,
  type GateReads,
  type GateVerdict,
  type GovernanceGate,
} from '../src/governance/governance-verdict';
import { workflowActor } from '../src/temporal/workflow-rows';

export interface ReleaseActivityDeps {
  db: Db;
  audit: AuditService;
  validation: ValidationEngine;
  releasePolicies: ReleasePolicyPorts;
  governance: GovernanceGate;
  config: { publicUrl: string };
  sources: WorkloadSources;
}

interface Target {
  releaseId: string;
  workflowId: string;
}

/** The audit action of entering each status (the commit itself is `release.deploy`, written by the commit path). */
const STATUS_ACTIONS: Record<ReleaseStatus, string> = {
  Validating: 'release.create',
  Blocked: 'release.block',
  PendingApproval: 'release.approval.request',
  AwaitingDeploy: 'release.deploy.wait',
  Queued: 'release.queue',
  Deploying: 'release.deploy.start',
  Syncing: 'release.sync.wait',
  Healthy: 'release.healthy',
  Failed: 'release.fail',
  Rejected: 'release.reject.complete',
  Cancelled: 'release.cancel',
  Expired: 'release.expire',
};

/** Spec events some transitions are (written with their audit entry, in its transaction). */
const STATUS_EVENTS: Partial<Record<ReleaseStatus, DomainEventType>> = {
  PendingApproval: DOMAIN_EVENT.approvalRequested,
  Failed: DOMAIN_EVENT.releaseFailed,
};

function gone(releaseId: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`release ${releaseId} not found`, 'ReleaseGone');
}

/**
 * Each activity locks the release row, checks the transition, changes the row and writes its audit entry (and the
 * spec event, if the transition is one) in one transaction. Activities run at least once, so each recognises its own
 * earlier committed attempt (the row already says so) and changes nothing the second time.
 */
export function createReleaseActivities(deps: ReleaseActivityDeps) {
  const { db, audit, validation, releasePolicies, governance, config, sources } = deps;
  /** The freezes and the requester's break-glass for the release's target, as the gate sees them now. */
  const gateOf = async (trx: Tx, row: ReleaseRow) => {
    const reads = gateReadsOf(trx, row);
    return gateVerdict(reads, await readTogether(trx, reads.parts), row);
  };
  /** gateOf in two halves, for a caller that reads the gate's rows with its own (`readTogether`). */
  const gateReadsOf = (trx: Tx, row: ReleaseRow) =>
    governance.readsFor(trx, { organizationId: row.organization_id, projectId: row.project_id }, row.created_by);
  const gateVerdict = (reads: GateReads, rows: RowsOf<GateReads['parts']>, row: ReleaseRow) =>
    governance.verdictsFrom(
      reads,
      rows,
      [{ environment: row.environment, tenants: [row.tenant_slug] }],
      row.kind === 'rollback' ? 'rollback' : 'release.deploy',
    )[0]!;

  async function locked<T>(releaseId: string, work: (trx: Tx, row: ReleaseRow) => Promise<T>): Promise<T> {
    return db.transaction(async (trx) => {
      const row = await lockRelease(trx, releaseId);
      if (!row) throw gone(releaseId);
      return work(trx, row);
    });
  }

  /** The freezes holding the release now (none: it may take its turn); held, it is Queued with them as its reason. */
  async function freezesHolding(
    trx: Tx,
    row: ReleaseRow,
    input: Target & { actor: AuditActor },
    /** The gate's verdict when the caller read it in this transaction already. */
    known?: GateVerdict,
  ) {
    const verdict = known ?? (await gateOf(trx, row));
    if (!verdict.blocked) return { freezes: [], reason: null, clearsAt: null } satisfies ReleaseFreezeCheck;
    const reason = frozenMessage(verdict.freezes);
    if (row.status !== 'Queued' || row.status_reason !== reason) {
      await enter(trx, row, input.workflowId, 'Queued', input.actor, reason);
    }
    return { freezes: verdict.freezes, reason, clearsAt: freezesClearAt(verdict.freezes) } satisfies ReleaseFreezeCheck;
  }

  /** The freezes holding the release, then its turn when none does (takeReleaseTurn, and prepareRelease's `turnFor`). */
  async function freezeAndTurn(
    trx: Tx,
    row: ReleaseRow,
    input: Target & { actor: AuditActor },
    known?: GateVerdict,
  ): Promise<ReleaseFreezeAndTurn> {
    const freeze = await freezesHolding(trx, row, input, known);
    return { freeze, turn: freeze.reason === null ? await turnOf(trx, row, input) : null };
  }

  /** The release's turn on its target: Deploying when nothing is ahead of it, else Queued behind the last one ahead. */
  async function turnOf(trx: Tx, row: ReleaseRow, input: Target & { actor: AuditActor }): Promise<ReleaseTurn> {
    if (HOLDING_STATUSES.includes(row.status)) return { acquired: true, behind: null };
    await lockTarget(trx, row);
    const queuedAt = row.queued_at ?? new Date();
    // Its place in the line, stamped once: with the status it enters (one update of the row, issue 46).
    const stamp = row.queued_at === null ? { queued_at: queuedAt } : {};
    const isAhead = (r: LineEntry) =>
      HOLDING_STATUSES.includes(r.status) ||
      (r.queued_at !== null &&
        (r.queued_at.getTime() < queuedAt.getTime() ||
          (r.queued_at.getTime() === queuedAt.getTime() && r.id < row.id)));
    const ahead = (await targetLine(trx, row)).filter((r) => r.id !== row.id && isAhead(r));
    const behind = ahead[ahead.length - 1]?.id ?? null;
    const behindTitle = ahead[ahead.length - 1]?.title ?? null;
    if (behind === null) {
      await enter(trx, row, input.workflowId, 'Deploying', input.actor, undefined, stamp);
      return { acquired: true, behind: null };
    }
    if (row.status !== 'Queued' || row.waiting_behind !== behind) {
      const reason = `waiting for release "${behindTitle ?? ''}" (${behind}) to finish`;
      await enter(trx, row, input.workflowId, 'Queued', input.actor, reason, { waiting_behind: behind, ...stamp });
    } else if (row.queued_at === null) await updateRelease(trx, row.id, stamp);
    return { acquired: false, behind, behindTitle };
  }

  async function record(
    trx: Tx,
    row: ReleaseRow,
    workflowId: string,
    actor: AuditActor,
    action: string,
    details: Record<string, unknown>,
    event?: DomainEventType,
    extra: Partial<AuditEntryInput> = {},
  ): Promise<void> {
    const entry = await audit.append(trx, {
      organizationId: row.organization_id,
      projectId: row.project_id,
      tenantId: row.tenant_id,
      ...actor,
      action,
      category: 'deployment',
      resourceType: 'release',
      resourceId: row.id,
      workflowId,
      gitCommitSha: row.commit_sha,
      details: { environment: row.environment, tenant: row.tenant_slug, title: row.title, ...details },
      ...extra,
    });
    if (event) {
      await recordDomainEvent(trx, {
        organizationId: row.organization_id,
        projectId: row.project_id,
        type: event,
        payload: {
          releaseId: row.id,
          environment: row.environment,
          tenantId: row.tenant_id,
          tenant: row.tenant_slug,
          title: row.title,
          gitCommitSha: row.commit_sha,
          auditId: entry.id,
          ...details,
        },
      });
    }
  }

  /** Records a sync report on the release (once per change of state) with its `release.sync.report` entry. */
  async function noteSync(trx: Tx, row: ReleaseRow, workflowId: string, report: SyncReport) {
    if (row.sync_status === report.syncStatus && row.health_status === report.healthStatus) return;
    await updateRelease(trx, row.id, { sync_status: report.syncStatus, health_status: report.healthStatus });
    await record(trx, row, workflowId, report.actor, 'release.sync.report', {
      revision: report.revision,
      syncStatus: report.syncStatus,
      healthStatus: report.healthStatus,
      message: report.message ?? null,
    });
  }

  /**
   * The break-glass session a release runs under, on its row (its page names it) with a `release.break_glass.apply`
   * entry naming the approval policies it bypasses: once, for the first session that covered it.
   */
  async function noteBreakGlass(
    trx: Tx,
    row: ReleaseRow,
    workflowId: string,
    grant: BreakGlassGrant,
    policies: { name: string; requiredApprovals: number }[],
  ) {
    if (row.break_glass) return;
    await updateRelease(trx, row.id, { break_glass: grant });
    const bypassed = policies.map((p) => ({ name: p.name, requiredApprovals: p.requiredApprovals }));
    const actor = {
      userId: grant.userId,
      actorType: 'user' as const,
      actor: grant.actor ?? grant.userId,
      requestId: null,
    };
    await record(trx, row, workflowId, actor, 'release.break_glass.apply', {
      bypassedApprovalPolicies: bypassed,
      ...breakGlassDetails(grant),
    });
  }

  /** A rollback's commit pins its target, with the `target.pin` entry. */
  async function pinRolledBack(trx: Tx, row: ReleaseRow, workflowId: string, actor: AuditActor) {
    const reason = row.rollback_of
      ? `rolled back to release ${row.rollback_of}`
      : `rolled back to an earlier verified version (${row.title})`;
    await pinTarget(trx, {
      organization_id: row.organization_id,
      project_id: row.project_id,
      tenant_id: row.tenant_id,
      tenant_slug: row.tenant_slug,
      environment: row.environment,
      reason,
      release_id: row.id,
      pinned_by: actor.userId,
      pinned_by_actor: actor.actor,
    });
    // Under the requester's break-glass session, the pin's entry carries it like the rollback's other entries.
    const { breakGlass } = await gateOf(trx, row);
    await record(trx, row, workflowId, actor, 'target.pin', { reason, ...breakGlassDetails(breakGlass) }, undefined, {
      category: 'configuration',
    });
  }

  async function enter(
    trx: Tx,
    row: ReleaseRow,
    workflowId: string,
    to: ReleaseStatus,
    actor: AuditActor,
    reason: string | undefined,
    changes: Parameters<typeof updateRelease>[2] = {},
  ) {
    await updateRelease(trx, row.id, { status: to, status_reason: reason ?? null, waiting_behind: null, ...changes });
    const status = FINAL_STATUSES.includes(to) && to !== 'Healthy' ? 'failure' : 'success';
    // The approval request names what approvers decide, current -> proposed (its notification carries it).
    const decision = to === 'PendingApproval' ? versionFacts(row.versions) : {};
    await record(
      trx,
      row,
      workflowId,
      actor,
      STATUS_ACTIONS[to],
      { from: row.status, to, reason, ...decision },
      STATUS_EVENTS[to],
      { status: to === 'Blocked' ? 'blocked' : status },
    );
  }

  /**
   * `policy.violation.detect` when rules fail on the release's files, `policy.violation.resolve` when rules that failed
   * on the target's previous release pass now (audit entry and event each, in the prepare transaction).
   */
  async function recordViolationChanges(
    trx: Tx,
    row: ReleaseRow,
    workflowId: string,
    check: ReleasePolicyCheck,
    previous: Pick<ReleaseRow, 'id' | 'policy_results'> | undefined,
  ) {
    const extra = { category: 'configuration' as const };
    if (check.failed.length > 0) {
      const details = { failed: check.failed, violations: check.violations, policies: check.summary };
      await record(
        trx,
        row,
        workflowId,
        SYSTEM,
        'policy.violation.detect',
        details,
        DOMAIN_EVENT.policyViolationDetected,
        extra,
      );
    }
    const before = ((previous?.policy_results as { failed?: string[] } | null)?.failed ?? []).filter(
      (rule) => !check.failed.includes(rule),
    );
    if (before.length > 0) {
      const details = { resolved: before, previousReleaseId: previous?.id ?? null };
      await record(
        trx,
        row,
        workflowId,
        SYSTEM,
        'policy.violation.resolve',
        details,
        DOMAIN_EVENT.policyViolationResolved,
        extra,
      );
    }
  }

  /** The release the line of its target hands the turn to once `row` left it. */
  async function nextInLine(trx: Queryable, row: ReleaseRow): Promise<{ id: string; workflowId: string } | null> {
    const line = await targetLine(trx, row);
    const first = line[0];
    return first && first.status === 'Queued' ? { id: first.id, workflowId: first.workflow_id } : null;
  }

  const activities = {
    /**
     * Renders the target with the release's changes, validates it against the environment's Kubernetes version,
     * applies the project's validation policy and its manifest policies, and finds the approval policies that apply.
     * Stores the results on the row; a second run with the same outcome writes no second audit entry. Asked with
     * `turnFor` (the deployer), a release with nothing to wait for (not blocked, no approval, auto-deploy) also takes
     * its freeze check and turn in this transaction, as takeReleaseTurn would next (`turn`, issue 46).
     */
    async prepareRelease(input: Target & { turnFor?: AuditActor }): Promise<PreparedRelease> {
      return locked(input.releaseId, async (trx, row) => {
        const context = { publicUrl: config.publicUrl, sources };
        const changed = movedWorkloads([{ tenant: row.tenant_slug, changes: row.changes }]);
        // The project, the gate's rows, the target's previous checked release and the workloads' dependencies in one
        // statement (issue 46: the round trips before a release's commit).
        const gate = gateReadsOf(trx, row);
        const { loaded, also } = await loadProjectWith(
          trx,
          { organizationId: row.organization_id, projectId: row.project_id, ctx: context, workloadNames: changed },
          {
            ...gate.parts,
            previous: previousCheckedRows(trx, row),
            dependencies: dependencyRows(trx, row.project_id),
          },
        );
        if (!loaded) throw gone(row.id);
        const evaluation = await evaluateRelease({ validation, releasePolicies }, trx, loaded, {
          organizationId: row.organization_id,
          tenantId: row.tenant_id,
          tenantSlug: row.tenant_slug,
          environment: row.environment,
          changes: row.changes,
        });
        const { digest, validation: checked, policies, approvalPolicies, blockReason } = evaluation;
        const stored = { digest, ...checked };
        // A retried attempt finds its own outcome on the row (the stored JSONB does not keep key order, so compare
        // what the outcome is made of: the files validated, the counts, the failed rules).
        const outcome = (v: typeof checked.summary | undefined, failed: string[] | undefined) =>
          `${v?.errors}/${v?.warnings}/${v?.deprecations}/${(failed ?? []).join(',')}`;
        const before = row.validation as { digest?: string; summary?: typeof checked.summary } | null;
        const failedBefore = (row.policy_results as { failed?: string[] } | null)?.failed;
        const unchanged =
          before?.digest === digest &&
          outcome(before.summary, failedBefore) === outcome(checked.summary, policies.failed);
        if (!unchanged) {
          await updateRelease(trx, row.id, {
            validation: stored,
            policy_results: { failed: policies.failed, summary: policies.summary, evaluations: policies.report },
            approval_policies: approvalPolicies,
          });
          const summary = { digest, validation: checked.summary, policies: policies.summary, blockReason };
          await record(trx, row, input.workflowId, SYSTEM, 'release.validate', summary, undefined, {
            status: blockReason ? 'blocked' : 'success',
          });
          await recordViolationChanges(trx, row, input.workflowId, policies, also.previous[0]);
        }
        // Break-glass bypasses approval waits (the commit's audit entry then carries the session).
        const verdict = gateVerdict(gate, also, row);
        const { breakGlass } = verdict;
        if (breakGlass) await noteBreakGlass(trx, row, input.workflowId, breakGlass, approvalPolicies);
        const approvals = breakGlass ? [] : approvalPolicies;
        const autoDeploy = loaded.project.policy.releases.autoDeploy;
        // Nothing to wait for before the commit: the freeze check and the turn in this transaction (takeReleaseTurn's).
        const turnFor = blockReason === null && approvals.length === 0 && autoDeploy ? input.turnFor : undefined;
        const turn = turnFor && (await freezeAndTurn(trx, row, { ...input, actor: turnFor }, verdict));
        return {
          blocked: blockReason !== null,
          blockReason,
          digest,
          approvalPolicies: approvals,
          breakGlass,
          autoDeploy,
          ...(turn ? { turn } : {}),
          changes: row.changes,
          groups: releaseGroups(loaded, also.dependencies, {
            tenantSlug: row.tenant_slug,
            environment: row.environment,
            changes: row.changes,
          }),
          tenantSlug: row.tenant_slug,
          projectSlug: loaded.project.slug,
        };
      });
    },

    /**
     * The freezes that hold the release's commit back now (unless its requester's break-glass covers them); a
     * release that waits for a freeze shows Queued with the freeze as its reason (one audit entry per new reason).
     */
    async checkReleaseFreezes(input: Target & { actor: AuditActor }): Promise<ReleaseFreezeCheck> {
      return locked(input.releaseId, (trx, row) => freezesHolding(trx, row, input));
    },

    async transitionRelease(input: Target & { to: ReleaseStatus; actor: AuditActor; reason?: string }) {
      await locked(input.releaseId, async (trx, row) => {
        if (row.status === input.to) return;
        await enter(trx, row, input.workflowId, input.to, input.actor, input.reason);
      });
    },

    /**
     * Ends the release and answers which release of its target goes next (null: none waits, or one holds it), with
     * its stored workflow id (histories recorded before it was answered derive `release-<id>`).
     */
    async finishRelease(
      input: Target & { to: ReleaseStatus; actor: AuditActor; reason: string },
    ): Promise<{ next: string | null; nextWorkflowId?: string | null }> {
      return locked(input.releaseId, async (trx, row) => {
        await lockTarget(trx, row);
        if (row.status !== input.to) {
          await enter(trx, row, input.workflowId, input.to, input.actor, input.reason, { finished_at: new Date() });
          if (row.kind === 'rollback' && input.to === 'Healthy') {
            const details = { rollbackOf: row.rollback_of };
            await record(
              trx,
              row,
              input.workflowId,
              input.actor,
              'rollback.complete',
              details,
              DOMAIN_EVENT.rollbackCompleted,
            );
          }
        }
        const next = await nextInLine(trx, row);
        return { next: next?.id ?? null, nextWorkflowId: next?.workflowId ?? null };
      });
    },

    async recordReleaseDecision(
      input: Target & {
        decision: 'approve' | 'reject';
        approver: ApproverProfile;
        actor: AuditActor;
        comment?: string;
      },
    ) {
      await locked(input.releaseId, async (trx, row) => {
        const inserted = await insertDecision(trx, {
          release_id: row.id,
          organization_id: row.organization_id,
          user_id: input.approver.userId,
          actor: input.actor.actor,
          decision: input.decision,
          comment: input.comment ?? null,
        });
        if (!inserted) return;
        const approve = input.decision === 'approve';
        await record(
          trx,
          row,
          input.workflowId,
          input.actor,
          approve ? 'release.approve' : 'release.reject',
          { comment: input.comment ?? null, role: input.approver.role },
          approve ? DOMAIN_EVENT.releaseApproved : undefined,
        );
      });
    },

    /**
     * Takes the target's turn when the release is first in line and nothing holds the target; otherwise queues it
     * (in the order releases became ready) and says behind which release it waits.
     */
    async acquireReleaseTarget(input: Target & { actor: AuditActor }): Promise<ReleaseTurn> {
      return locked(input.releaseId, (trx, row) => turnOf(trx, row, input));
    },

    /**
     * The release's commit is noted and the release is Syncing; a rollback's commit pins its target, any other
     * release's commit releases the target's pin, in the same transaction (docs/promotions.md); what the controller already reported about the
     * commit (a fast controller reports before this) is returned as a decided report, recorded like one that comes
     * later (null: it waits for reports).
     */
    /** `reason`: the step of a release committing in service order (`group 2/3: api — waiting for ...`). */
    async markReleaseCommitted(
      input: Target & { sha: string; actor: AuditActor; reason?: string },
    ): Promise<SyncReport | null> {
      return locked(input.releaseId, async (trx, row) => {
        const target = { projectId: row.project_id, tenantId: row.tenant_id, environment: row.environment };
        await lockDeployedTarget(trx, target);
        if (row.status !== 'Syncing' || row.commit_sha !== input.sha) {
          const committed = { ...row, commit_sha: input.sha };
          // The commit and the status it enters in one update of the row (issue 46).
          await enter(trx, committed, input.workflowId, 'Syncing', input.actor, input.reason, {
            commit_sha: input.sha,
            committed_at: new Date(),
          });
          if (row.kind === 'rollback') await pinRolledBack(trx, committed, input.workflowId, input.actor);
          else {
            const by = { kind: 'release' as const, id: row.id, title: row.title, workflowId: input.workflowId };
            await releasePinByDeploy(trx, audit, target, input.actor, { ...by, gitCommitSha: input.sha });
          }
        }
        const report = await reportedAlready(trx, { ...target, revision: input.sha });
        if (report) await noteSync(trx, row, input.workflowId, report);
        return report;
      });
    },

    /**
     * A commit waiting out a Git storage outage, on the row: the Deploying release's status reason says so (with a
     * `release.commit.wait` entry) until markReleaseCommitted (or the release's end) replaces it. A retry finds its
     * own note and writes nothing twice.
     */
    async noteReleaseCommitWait(input: Target & { note: string; actor: AuditActor }): Promise<void> {
      await locked(input.releaseId, async (trx, row) => {
        if (row.status !== 'Deploying' || row.status_reason === input.note) return;
        await updateRelease(trx, row.id, { status_reason: input.note });
        await record(trx, row, input.workflowId, input.actor, 'release.commit.wait', { reason: input.note });
      });
    },

    async recordReleaseSync(input: Target & { report: SyncReport }) {
      await locked(input.releaseId, (trx, row) => noteSync(trx, row, input.workflowId, input.report));
    },

    /**
     * checkReleaseFreezes, then acquireReleaseTarget when no freeze holds the release: one activity, one round trip
     * through Temporal fewer between approval and commit (issue 35).
     */
    async takeReleaseTurn(input: Target & { actor: AuditActor }): Promise<ReleaseFreezeAndTurn> {
      // One transaction for both (issue 46): a check that holds nothing writes nothing, so the turn follows it under the
      // same row lock.
      return locked(input.releaseId, (trx, row) => freezeAndTurn(trx, row, input));
    },
  };
  return activities;
}

const SYSTEM = workflowActor('release-workflow');
