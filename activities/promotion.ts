import { ApplicationFailure } from '@temporalio/activity';
import { approverProfile } from '../src/approval-policies/approval-gate';
import { quorum, type ApprovalPolicySnapshot, type Quorum } from '../src/approval-policies/approval-decision';
import type { AuditService } from '../src/audit/audit-service';
import type { AuditActor } from '../src/audit/types';
import type { Db, Tx } from '../src/db/knex';
import { DOMAIN_EVENT, recordDomainEvent, type DomainEventType } from '../src/events/domain-event-repository';
import { renderDigest } from '../src/gitops/commit-path';
import { releasePinByDeploy } from '../src/pins/pin-release';
import { loadProject } from '../src/gitops/delivery-model';
import { movedTargets, movedWorkloads } from '../src/gitops/target-operation';
import { renderAll } from '../src/gitops/manifests';
import { lockDeployedTarget } from '../src/deployments/report-state';
import { reportedAlready } from '../src/deployments/sync-verdict';
import { unverifiedVersions } from '../src/deployments/source-verification';
import type { WorkloadSources } from '../src/gitops/workload-sources';
import type { GovernanceGate } from '../src/governance/governance-verdict';
import { promotionCauses } from '../src/promotions/promotion-causes';
import { promotionSourceText } from '../src/promotions/promotion-source';
import { workflowActor } from '../src/temporal/workflow-rows';
import { promotionGroups, withMoves } from '../src/promotions/promotion-plan';
import { dependencyGraph } from '../src/projects/workload-repository';
import {
  insertPromotionApproval,
  listPromotionApprovals,
  lockPromotion,
  updatePromotion,
  type PromotionChanges,
  type PromotionRow,
} from '../src/promotions/promotion-repository';
import {
  FINAL_PROMOTION_STATUSES,
  type Evaluation,
  type PromotionStatus,
  type PromotionSyncReport,
} from '../src/promotions/promotion-workflow-contract';
import type { ReleasePolicyPorts } from '../src/releases/release-policy-ports';
import { holdingReleases, latestDeployedRelease } from '../src/releases/release-repository';
import type { ApproverProfile } from '../src/releases/release-workflow-contract';

export interface PromotionActivityDeps {
  db: Db;
  audit: AuditService;
  releasePolicies: ReleasePolicyPorts;
  governance: GovernanceGate;
  sources: WorkloadSources;
  config: { publicUrl: string };
}

interface Target {
  promotionId: string;
  workflowId: string;
}

/** The audit action of entering each status (the commit itself is `promotion.execute`, written by the commit path). */
const STATUS_ACTIONS: Record<PromotionStatus, string> = {
  Evaluating: 'promotion.request',
  Blocked: 'promotion.block',
  Executing: 'promotion.execute.start',
  Syncing: 'promotion.sync.wait',
  Healthy: 'promotion.healthy',
  Failed: 'promotion.fail',
  Expired: 'promotion.expire',
  Cancelled: 'promotion.cancel',
};

const SYSTEM = workflowActor('promotion-workflow');

const gone = (id: string) => ApplicationFailure.nonRetryable(`promotion ${id} not found`, 'PromotionGone');

/** The policies covering any tenant of the move, once each. */
async function policiesFor(ports: ReleasePolicyPorts, trx: Tx, row: PromotionRow): Promise<ApprovalPolicySnapshot[]> {
  const byId = new Map<string, ApprovalPolicySnapshot>();
  for (const move of row.moves) {
    const target = {
      organizationId: row.organization_id,
      projectId: row.project_id,
      environment: row.target_environment,
      tenantId: move.tenantId,
    };
    for (const policy of await ports.approvalPolicies(trx, target)) byId.set(policy.id, policy);
  }
  return [...byId.values()];
}

/** The source environment's side of an evaluation: tenants whose latest release there is not Healthy, unverified versions. */
async function sourceFacts(trx: Tx, row: PromotionRow, environment: string) {
  const unhealthy: { tenant: string; releaseId: string; status: string }[] = [];
  for (const move of row.moves) {
    const last = await latestDeployedRelease(trx, {
      project_id: row.project_id,
      tenant_id: move.tenantId,
      environment,
    });
    if (last && last.status !== 'Healthy') {
      unhealthy.push({ tenant: move.tenant, releaseId: last.id, status: last.status });
    }
  }
  const { unverified, soakEndsAt } = await unverifiedVersions(
    trx,
    { projectId: row.project_id, environment },
    row.moves,
  );
  return { unhealthy, unverified, soakEndsAt };
}

/** Each activity locks the promotion row, changes it and writes its audit entry (and spec event) in one transaction. */
export function createPromotionActivities(deps: PromotionActivityDeps) {
  const { db, audit, releasePolicies, governance, config, sources } = deps;
  async function locked<T>(id: string, work: (trx: Tx, row: PromotionRow) => Promise<T>): Promise<T> {
    return db.transaction(async (trx) => {
      const row = await lockPromotion(trx, id);
      if (!row) throw gone(id);
      return work(trx, row);
    });
  }

  async function record(
    trx: Tx,
    row: PromotionRow,
    workflowId: string,
    actor: AuditActor,
    action: string,
    details: Record<string, unknown>,
    options: { event?: DomainEventType; status?: 'success' | 'failure' | 'blocked' } = {},
  ) {
    const all = {
      sourceEnvironment: row.source_environment,
      environment: row.target_environment,
      tenants: row.moves.map((m) => m.tenant),
      ...details,
    };
    const entry = await audit.append(trx, {
      organizationId: row.organization_id,
      projectId: row.project_id,
      ...actor,
      action,
      category: 'promotion',
      resourceType: 'promotion',
      resourceId: row.id,
      workflowId,
      gitCommitSha: row.commit_sha,
      status: options.status ?? 'success',
      details: all,
    });
    if (options.event) {
      await recordDomainEvent(trx, {
        organizationId: row.organization_id,
        projectId: row.project_id,
        type: options.event,
        payload: { promotionId: row.id, gitCommitSha: row.commit_sha, auditId: entry.id, ...all },
      });
    }
  }

  /** Records one tenant's sync report on the promotion (once per change of state); returns the row as it is now. */
  async function noteSync(trx: Tx, row: PromotionRow, workflowId: string, report: PromotionSyncReport) {
    const before = row.sync[report.tenant];
    if (before?.syncStatus === report.syncStatus && before.healthStatus === report.healthStatus) return row;
    const sync = { ...row.sync, [report.tenant]: { syncStatus: report.syncStatus, healthStatus: report.healthStatus } };
    await updatePromotion(trx, row.id, { sync });
    await record(trx, row, workflowId, report.actor, 'promotion.sync.report', {
      tenant: report.tenant,
      revision: report.revision,
      syncStatus: report.syncStatus,
      healthStatus: report.healthStatus,
      message: report.message ?? null,
    });
    return { ...row, sync };
  }

  async function enter(
    trx: Tx,
    row: PromotionRow,
    workflowId: string,
    to: PromotionStatus,
    actor: AuditActor,
    reason: string | undefined,
    changes: PromotionChanges = {},
  ) {
    const final = FINAL_PROMOTION_STATUSES.includes(to);
    await updatePromotion(trx, row.id, {
      status: to,
      status_reason: reason ?? null,
      ...(final ? { finished_at: new Date() } : {}),
      ...changes,
    });
    const status = to === 'Blocked' ? 'blocked' : final && to !== 'Healthy' ? 'failure' : 'success';
    await record(
      trx,
      row,
      workflowId,
      actor,
      STATUS_ACTIONS[to],
      { from: row.status, to, reason, ...changes },
      {
        status,
      },
    );
  }

  return {
    /**
     * Evaluates the five causes that can block the promotion (every one that holds), stores them on the row (an audit
     * entry when they changed), and answers what the workflow needs to go on or to wait.
     */
    async evaluatePromotion(input: Target): Promise<Evaluation> {
      return locked(input.promotionId, async (trx, row) => {
        const context = { publicUrl: config.publicUrl, sources };
        const loaded = await loadProject(trx, row.organization_id, row.project_id, context, movedWorkloads(row.moves));
        if (!loaded) throw gone(row.id);
        const environment = row.target_environment;
        const tenants = new Set(row.moves.map((m) => m.tenant));
        const moved = withMoves(loaded.model, environment, row.moves);
        const files = renderAll(moved, movedTargets(environment, row.moves));
        const verdict = await governance.check(
          trx,
          {
            organizationId: row.organization_id,
            projectId: row.project_id,
            environment,
            tenants: [...tenants],
          },
          'promotion.execute',
          row.created_by,
        );

        const policies =
          (row.approval_policies as ApprovalPolicySnapshot[] | null) ?? (await policiesFor(releasePolicies, trx, row));
        let approvals: Quorum | null = null;
        if (!verdict.breakGlass && policies.length > 0) {
          const approvers = [];
          for (const a of await listPromotionApprovals(trx, row.id)) {
            if (a.user_id) approvers.push(await approverProfile(trx, row.organization_id, a.user_id));
          }
          approvals = quorum(policies, approvers);
        }

        const production = loaded.environments.find((e) => e.environment === environment)?.production ?? false;
        const check = await releasePolicies.check(trx, {
          organizationId: row.organization_id,
          projectId: row.project_id,
          files,
          production,
        });

        // A wave of an image rollout has no source environment: nothing upstream to be healthy or to have verified.
        const source = row.source_environment === null ? null : await sourceFacts(trx, row, row.source_environment);
        const { unhealthy, unverified, soakEndsAt } = source ?? { unhealthy: [], unverified: [], soakEndsAt: null };
        const busy = await holdingReleases(
          trx,
          row.project_id,
          environment,
          row.moves.map((m) => m.tenantId),
        );
        const sourceText = promotionSourceText(row);
        const { causes, clearsAt } = promotionCauses({
          sourceEnvironment: sourceText,
          targetEnvironment: environment,
          freezes: verdict.blocked ? verdict.freezes : [],
          breakGlass: verdict.breakGlass !== null,
          approvals,
          policy: check,
          unhealthy,
          unverified,
          soakEndsAt,
          busy,
        });

        const changes: PromotionChanges = {};
        if (row.approval_policies === null) changes.approval_policies = policies;
        if (verdict.breakGlass && row.break_glass === null) changes.break_glass = verdict.breakGlass;
        const sameCauses =
          JSON.stringify(row.causes.map((c) => c.message)) === JSON.stringify(causes.map((c) => c.message));
        if (causes.length > 0 && (row.status !== 'Blocked' || !sameCauses)) {
          await enter(trx, row, input.workflowId, 'Blocked', SYSTEM, causes.map((c) => c.message).join('; '), {
            ...changes,
            causes,
          });
        } else if (Object.keys(changes).length > 0 || (causes.length === 0 && row.causes.length > 0)) {
          await updatePromotion(trx, row.id, { ...changes, causes });
        }
        return {
          causes,
          clearsAt,
          digest: renderDigest(files),
          breakGlass: verdict.breakGlass,
          approvalPolicies: policies,
          moves: row.moves,
          groups: promotionGroups(moved, await dependencyGraph(trx, row.project_id), environment, row.moves),
          sourceEnvironment: sourceText,
          targetEnvironment: environment,
        };
      });
    },

    async transitionPromotion(input: Target & { to: PromotionStatus; actor: AuditActor; reason?: string }) {
      await locked(input.promotionId, async (trx, row) => {
        if (row.status === input.to) return;
        await enter(trx, row, input.workflowId, input.to, input.actor, input.reason);
      });
    },

    async recordPromotionApproval(input: Target & { approver: ApproverProfile; actor: AuditActor; comment?: string }) {
      await locked(input.promotionId, async (trx, row) => {
        const inserted = await insertPromotionApproval(trx, {
          promotion_id: row.id,
          organization_id: row.organization_id,
          user_id: input.approver.userId,
          actor: input.actor.actor,
          comment: input.comment ?? null,
        });
        if (!inserted) return;
        await record(
          trx,
          row,
          input.workflowId,
          input.actor,
          'promotion.approve',
          { comment: input.comment ?? null, role: input.approver.role },
          { event: DOMAIN_EVENT.promotionApproved },
        );
      });
    },

    /**
     * The promotion's commit is noted and it is Syncing; what the controller already reported about the commit per
     * tenant (a fast controller reports before this) is returned as decided reports, recorded like later ones.
     */
    /**
     * A commit waiting out a Git storage outage, on the row: the Executing promotion's status reason says so (with a
     * `promotion.commit.wait` entry) until markPromotionCommitted (or the promotion's end) replaces it. A retry finds
     * its own note and writes nothing twice.
     */
    async notePromotionCommitWait(input: Target & { note: string; actor: AuditActor }): Promise<void> {
      await locked(input.promotionId, async (trx, row) => {
        if (row.status !== 'Executing' || row.status_reason === input.note) return;
        await updatePromotion(trx, row.id, { status_reason: input.note });
        await record(trx, row, input.workflowId, input.actor, 'promotion.commit.wait', { reason: input.note });
      });
    },

    /** `reason`: the step of a promotion committing in service order (`group 2/3: api — waiting for ...`). */
    async markPromotionCommitted(
      input: Target & { sha: string; actor: AuditActor; reason?: string },
    ): Promise<PromotionSyncReport[]> {
      return locked(input.promotionId, async (trx, row) => {
        for (const move of row.moves) {
          await lockDeployedTarget(trx, {
            projectId: row.project_id,
            tenantId: move.tenantId,
            environment: row.target_environment,
          });
        }
        if (row.status !== 'Syncing' || row.commit_sha !== input.sha) {
          await updatePromotion(trx, row.id, { commit_sha: input.sha, committed_at: new Date() });
          await enter(trx, { ...row, commit_sha: input.sha }, input.workflowId, 'Syncing', input.actor, input.reason);
          // An explicit promotion moves its targets forward on purpose: a rollback's pin on one of them is released.
          const title = `promotion ${promotionSourceText(row)} -> ${row.target_environment}`;
          const by = { kind: 'promotion' as const, id: row.id, title, workflowId: input.workflowId };
          for (const move of row.moves) {
            const target = { projectId: row.project_id, tenantId: move.tenantId, environment: row.target_environment };
            await releasePinByDeploy(trx, audit, target, input.actor, { ...by, gitCommitSha: input.sha });
          }
        }
        const reports: PromotionSyncReport[] = [];
        let current: PromotionRow = { ...row, commit_sha: input.sha };
        for (const move of row.moves) {
          const target = { projectId: row.project_id, tenantId: move.tenantId, environment: row.target_environment };
          const report = await reportedAlready(trx, { ...target, revision: input.sha });
          if (!report) continue;
          current = await noteSync(trx, current, input.workflowId, { ...report, tenant: move.tenant });
          reports.push({ ...report, tenant: move.tenant });
        }
        return reports;
      });
    },

    async recordPromotionSync(input: Target & { report: PromotionSyncReport }) {
      await locked(input.promotionId, async (trx, row) => {
        await noteSync(trx, row, input.workflowId, input.report);
      });
    },
  };
}
