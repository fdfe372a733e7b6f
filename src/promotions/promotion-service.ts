import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { approverProfile } from '../approval-policies/approval-gate';
import type { PageRequest } from '../db/pagination';
import { Conflict, Forbidden, NotFound } from '../errors';
import { DOMAIN_EVENT, recordDomainEvent } from '../events/domain-event-repository';
import { loadProject } from '../gitops/delivery-model';
import type { WorkloadSources } from '../gitops/workload-sources';
import type { AuditActor } from '../audit/types';
import { auditActor, orgEntry, uuidKey, type OrgCaller } from '../iam/caller';
import { scopedLookup, type OrgDomainDeps } from '../iam/cross-org';
import { findProjectById, type Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { workflowTimeline } from '../releases/release-history';
import { creatorOf, reconcileRows, rowHistory } from '../temporal/workflow-rows';
import { SEARCH_ATTRIBUTES, taskQueue } from '../temporal/definitions';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { updateRefusal } from '../temporal/update-refusal';
import { workflowLink } from '../temporal/workflow-link';
import { planMoves, type PromotionRequest } from './promotion-plan';
import {
  findPromotion,
  findPromotionByCommit,
  insertPromotion,
  listPromotionApprovals,
  listPromotions,
  listUnstartedPromotions,
  markPromotionWorkflowStarted,
  blockedPromotionsFrom,
  syncingPromotions,
  type PromotionRow,
} from './promotion-repository';
import { promotionSourceText } from './promotion-source';
import { promotionDetail, promotionSummary, promotionVersions } from './promotion-views';
import { versionsText } from '../deployments/version-change';
import { stillAwaited } from '../deployments/sync-verdict';
import {
  PROMOTION_FAILURE,
  approvePromotionUpdate,
  cancelPromotionUpdate,
  promotionWorkflowId,
  reportPromotionSyncUpdate,
  sourceReportedSignal,
  type PromotionStatus,
  type PromotionSyncReport,
  type PromotionTiming,
  promotionWorkflowType,
} from './promotion-workflow-contract';

export interface PromotionServiceDeps extends OrgDomainDeps {
  temporal: Client;
  workflows: WorkflowStarter;
  projects: Pick<ProjectService, 'projectOf'>;
  taskQueuePrefix: string;
  timing: PromotionTiming;
  publicUrl: string;
  sources: WorkloadSources;
  namespace: string;
  temporalUiUrl: string | undefined;
}

export type PromotionService = ReturnType<typeof createPromotionService>;

/**
 * Promotions: the row and its workflow, whose id the row stores (the row first, the workflow right after, a reconciler
 * for a crash between them), reads from the row, approvals, cancel and sync reports as Updates of the workflow.
 */
export function createPromotionService(deps: PromotionServiceDeps) {
  const { db, audit, temporal } = deps;
  const promotionOf = scopedLookup(
    deps,
    { table: 'promotions', column: 'id', resourceType: 'promotion', category: 'promotion', parse: uuidKey },
    findPromotion,
  );

  async function ensureWorkflow(row: PromotionRow, requester: AuditActor): Promise<void> {
    await deps.workflows.start(promotionWorkflowType, {
      workflowId: row.workflow_id,
      args: [
        {
          promotionId: row.id,
          organizationId: row.organization_id,
          projectId: row.project_id,
          requester,
          gitTaskQueue: taskQueue(deps.taskQueuePrefix, 'git'),
          timing: deps.timing,
        },
      ],
      labels: { organizationId: row.organization_id, projectId: row.project_id, environment: row.target_environment },
      searchAttributes: [{ key: SEARCH_ATTRIBUTES.resourceStatus, value: 'Evaluating' }],
      summary: `promote ${promotionSourceText(row)} -> ${row.target_environment}`,
      details: `Promotion \`${row.id}\``,
    });
    await markPromotionWorkflowStarted(db, row.id);
  }

  async function projectOfRow(row: PromotionRow): Promise<Project> {
    const project = await findProjectById(db, row.organization_id, row.project_id);
    if (!project) throw new NotFound('promotion not found');
    return project;
  }

  async function detail(row: PromotionRow) {
    const project = await projectOfRow(row);
    const ui = workflowLink(deps.temporalUiUrl, deps.namespace, row.workflow_id);
    const waitingFor = [];
    for (const move of row.moves) {
      const target = { projectId: row.project_id, tenantId: move.tenantId, environment: row.target_environment };
      const syncing = row.status === 'Syncing';
      for (const app of await stillAwaited(db, { ...target, revision: row.commit_sha, syncing })) {
        waitingFor.push({ tenant: move.tenant, ...app });
      }
    }
    const links = { workflow: ui, history: `/api/v2/promotions/${row.id}/history` };
    return { ...promotionDetail(row, project.slug, await listPromotionApprovals(db, row.id), links), waitingFor };
  }

  async function act(
    caller: OrgCaller,
    id: string,
    send: (h: ReturnType<Client['workflow']['getHandle']>) => Promise<unknown>,
  ) {
    const row = await promotionOf(caller, id);
    try {
      await send(temporal.workflow.getHandle(row.workflow_id));
    } catch (err) {
      throw updateRefusal(err, `promotion is ${row.status}`, PROMOTION_FAILURE, [
        PROMOTION_FAILURE.selfApproval,
        PROMOTION_FAILURE.notEligible,
      ]);
    }
    return detail((await findPromotion(db, caller.organizationId, row.id)) ?? row);
  }

  return {
    /** Computes what moves (422 when nothing would), records the request and starts the promotion's workflow. */
    /** `planSkippedBy`: the break-glass session under which the request skipped the target's rollout plan. */
    async request(caller: OrgCaller, slug: string, body: PromotionRequest, planSkippedBy: string | null = null) {
      const project = await deps.projects.projectOf(caller, slug);
      if (project.archived) throw new Conflict('the project is archived');
      const loaded = await loadProject(db, caller.organizationId, project.id, {
        publicUrl: deps.publicUrl,
        sources: deps.sources,
      });
      if (!loaded) throw new NotFound('project not found');
      const moves = planMoves(loaded, body);
      const id = randomUUID();
      const requester = auditActor(caller);
      const row = await db.transaction(async (trx) => {
        const inserted = await insertPromotion(trx, {
          id,
          organization_id: caller.organizationId,
          project_id: project.id,
          source_environment: body.sourceEnvironment,
          target_environment: body.targetEnvironment,
          moves,
          workflow_id: promotionWorkflowId(id, {
            project: project.slug,
            tenants: moves.map((m) => m.tenant),
            source: body.sourceEnvironment,
            target: body.targetEnvironment,
          }),
          created_by: caller.principal.userId,
          created_by_actor: requester.actor,
        });
        // What approvers are asked to decide, current -> proposed, in the entry and the `promotion.request` event.
        const { versions, downgrade } = promotionVersions(moves);
        const details = {
          sourceEnvironment: body.sourceEnvironment,
          environment: body.targetEnvironment,
          tenants: moves.map((m) => m.tenant),
          moves,
          versions: versionsText(versions),
          downgrade,
          ...(planSkippedBy ? { rolloutPlanSkipped: { breakGlassSessionId: planSkippedBy } } : {}),
        };
        const entry = await audit.append(
          trx,
          orgEntry(caller, {
            action: 'promotion.request',
            category: 'promotion',
            projectId: project.id,
            resourceType: 'promotion',
            resourceId: id,
            workflowId: inserted.workflow_id,
            details,
          }),
        );
        await recordDomainEvent(trx, {
          organizationId: caller.organizationId,
          projectId: project.id,
          type: DOMAIN_EVENT.promotionRequested,
          payload: { promotionId: id, ...details, auditId: entry.id },
        });
        return inserted;
      });
      // A crash here leaves a row without its workflow: the reconciler starts it.
      await ensureWorkflow(row, requester);
      return detail(row);
    },

    async list(
      caller: OrgCaller,
      slug: string,
      filter: { status?: PromotionStatus; targetEnvironment?: string },
      page: PageRequest,
    ) {
      const project = await deps.projects.projectOf(caller, slug);
      const result = await listPromotions(db, caller.organizationId, project.id, filter, page);
      return { items: result.items.map((r) => promotionSummary(r, project.slug)), nextCursor: result.nextCursor };
    },

    async get(caller: OrgCaller, id: string) {
      return detail(await promotionOf(caller, id));
    },

    /** The project of a promotion, for the route's action (`projects.{slug}.promotions.*`); 404 like a missing id. */
    async actionScope(caller: OrgCaller, id: string): Promise<{ slug: string }> {
      return { slug: (await projectOfRow(await promotionOf(caller, id))).slug };
    },

    async approve(caller: OrgCaller, id: string, comment: string | undefined) {
      const userId = caller.principal.userId;
      if (userId === null) throw new Forbidden('approvals are given by people: sign in as a user');
      const approver = await approverProfile(db, caller.organizationId, userId);
      return act(caller, id, (h) =>
        h.executeUpdate(approvePromotionUpdate, { args: [{ approver, actor: auditActor(caller), comment }] }),
      );
    },

    async cancel(caller: OrgCaller, id: string, reason: string | undefined) {
      return act(caller, id, (h) =>
        h.executeUpdate(cancelPromotionUpdate, { args: [{ actor: auditActor(caller), reason }] }),
      );
    },

    /** The syncing promotion of a project committed as `revision` (what the controller webhook tells), if any. */
    /** Tells the Blocked promotions taking versions from `environment` to look again (a source turned verified). */
    async sourceReported(organizationId: string, projectId: string, environment: string): Promise<void> {
      for (const row of await blockedPromotionsFrom(db, organizationId, projectId, environment)) {
        try {
          await temporal.workflow.getHandle(row.workflow_id).signal(sourceReportedSignal);
        } catch {
          // Ended meanwhile: nothing to tell; a lost signal is covered by the promotion's own recheck.
        }
      }
    },

    /** The promotions waiting for a sync of their commit in `environment` that move `tenant`. */
    async waitingFor(
      organizationId: string,
      projectId: string,
      target: { environment: string; tenant: string },
    ): Promise<{ kind: 'promotion'; id: string; workflowId: string; commitSha: string }[]> {
      const rows = await syncingPromotions(db, organizationId, projectId, target.environment);
      return rows
        .filter((row) => row.moves.some((m) => m.tenant === target.tenant))
        .map((row) => ({
          kind: 'promotion',
          id: row.id,
          workflowId: row.workflow_id,
          commitSha: row.commit_sha as string,
        }));
    },

    /**
     * A controller's report for the promotion whose commit is `revision` (the controller webhook calls this); null
     * when no promotion of the project has that commit.
     */
    async reportSync(
      organizationId: string,
      projectId: string,
      report: PromotionSyncReport,
    ): Promise<{ promotionId: string } | null> {
      const row = await findPromotionByCommit(db, organizationId, projectId, report.revision);
      if (!row) return null;
      try {
        await temporal.workflow.getHandle(row.workflow_id).executeUpdate(reportPromotionSyncUpdate, { args: [report] });
      } catch (err) {
        throw updateRefusal(err, `promotion is ${row.status}`, PROMOTION_FAILURE, []);
      }
      return { promotionId: row.id };
    },

    /** A page of the workflow's history as a timeline of steps (newest first), beside the audit entries of the promotion. */
    async history(caller: OrgCaller, id: string, page: PageRequest) {
      const row = await promotionOf(caller, id);
      const read = (client: Client, workflowId: string) => workflowTimeline(client, workflowId, page, row.commit_sha);
      return { promotionId: row.id, ...(await rowHistory(deps, caller, row, 'promotion', read)) };
    },

    /** Starts the workflows promotion rows are missing (a crash between the row's commit and the start). */
    async reconcile(limit = 100): Promise<number> {
      return reconcileRows(
        (before, max) => listUnstartedPromotions(db, before, max),
        (row) => ensureWorkflow(row, creatorOf(row)),
        limit,
      );
    },
  };
}
