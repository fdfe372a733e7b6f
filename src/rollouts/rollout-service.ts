import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { approverProfile } from '../approval-policies/approval-gate';
import { enabledApprovalPoliciesOf } from '../approval-policies/approval-policy-repository';
import { Conflict, Forbidden, NotFound, Unprocessable } from '../errors';
import { loadProject } from '../gitops/delivery-model';
import type { WorkloadSources } from '../gitops/workload-sources';
import { auditActor, orgEntry, uuidKey, type OrgCaller } from '../iam/caller';
import { scopedLookup, type OrgDomainDeps } from '../iam/cross-org';
import { findProjectById } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { planMoves } from '../promotions/promotion-plan';
import type { PromotionTiming } from '../promotions/promotion-workflow-contract';
import { SEARCH_ATTRIBUTES, taskQueue } from '../temporal/definitions';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { updateRefusal } from '../temporal/update-refusal';
import { creatorOf, reconcileRows } from '../temporal/workflow-rows';
import { rolloutWaves } from './rollout-gates';
import { planReferences } from './plan-references';
import { normalizePlan, planProblems, type RolloutPlanInput } from './rollout-plan';
import { findRolloutPlan } from './rollout-plan-repository';
import {
  findRollout,
  insertRollout,
  listRollouts,
  listUnstartedRollouts,
  markRolloutWorkflowStarted,
  type RolloutRow,
} from './rollout-repository';
import { rolloutView } from './rollout-view';
import {
  ROLLOUT_FAILURE,
  abortRolloutUpdate,
  approveWaveUpdate,
  pauseRolloutUpdate,
  resumeRolloutUpdate,
  rolloutWorkflowId,
  rolloutWorkflowType,
  skipSoakUpdate,
} from './rollout-workflow-contract';
import { resolveWaves } from './wave-selection';

export interface RolloutStartRequest {
  sourceEnvironment: string;
  targetEnvironment: string;
  services?: string[];
  /** An explicit plan; absent: the target environment's plan. */
  plan?: RolloutPlanInput;
}

export type RolloutAction = 'pause' | 'resume' | 'abort' | 'skip-soak';
const UPDATES = {
  pause: pauseRolloutUpdate,
  resume: resumeRolloutUpdate,
  abort: abortRolloutUpdate,
  'skip-soak': skipSoakUpdate,
} as const;

export type RolloutService = ReturnType<typeof createRolloutService>;

/** Rollouts: the row and its workflow (row first, the start right after, a reconciler for a crash between them). */
export function createRolloutService(
  deps: OrgDomainDeps & {
    temporal: Client;
    workflows: WorkflowStarter;
    projects: Pick<ProjectService, 'projectOf'>;
    taskQueuePrefix: string;
    promotionTiming: PromotionTiming;
    historyLimit: number;
    publicUrl: string;
    sources: WorkloadSources;
  },
) {
  const { db, audit, temporal } = deps;
  const rolloutOf = scopedLookup(
    deps,
    { table: 'rollouts', column: 'id', resourceType: 'rollout', category: 'deployment', parse: uuidKey },
    findRollout,
  );

  async function ensureWorkflow(row: RolloutRow, projectSlug: string): Promise<void> {
    await deps.workflows.start(rolloutWorkflowType, {
      workflowId: row.workflow_id,
      args: [
        {
          rolloutId: row.id,
          organizationId: row.organization_id,
          projectId: row.project_id,
          projectSlug,
          sourceEnvironment: row.source_environment,
          environment: row.environment,
          version: row.plan.version,
          requester: creatorOf(row),
          waves: row.plan.waves,
          rollbackOnHalt: row.plan.rollbackOnHalt,
          gitTaskQueue: taskQueue(deps.taskQueuePrefix, 'git'),
          promotionTiming: deps.promotionTiming,
          historyLimit: deps.historyLimit,
        },
      ],
      labels: { organizationId: row.organization_id, projectId: row.project_id, environment: row.environment },
      searchAttributes: [{ key: SEARCH_ATTRIBUTES.resourceStatus, value: 'Running' }],
      summary: `rollout ${row.source_environment} -> ${row.environment} in ${row.plan.waves.length} waves`,
      details: `Rollout \`${row.id}\` (/api/v2/rollouts/${row.id})`,
    });
    await markRolloutWorkflowStarted(db, row.id);
  }

  return {
    /** Resolves the plan's waves over the tenants that move, records the rollout and starts its workflow. */
    async start(caller: OrgCaller, slug: string, body: RolloutStartRequest) {
      const project = await deps.projects.projectOf(caller, slug);
      if (project.archived) throw new Conflict('the project is archived');
      const loaded = await loadProject(db, caller.organizationId, project.id, deps);
      if (!loaded) throw new NotFound('project not found');
      const environment = body.targetEnvironment;
      const moves = planMoves(loaded, body);
      const policies = await enabledApprovalPoliciesOf(db, caller.organizationId, project.id);
      const stored = body.plan ? null : await findRolloutPlan(db, caller.organizationId, project.id, environment);
      if (!body.plan && !stored) {
        throw new Unprocessable(`environment ${environment} has no rollout plan: set one or give a plan`);
      }
      const plan = body.plan ? normalizePlan(body.plan) : stored!;
      const tenantSlugs = loaded.tenants.map((t) => t.slug);
      const problems = planProblems(
        plan,
        await planReferences(db, caller.organizationId, project.id, plan, tenantSlugs),
      );
      if (problems.length > 0) throw new Unprocessable(`invalid rollout plan: ${problems.join('; ')}`);
      const moving = loaded.tenants.filter((t) => moves.some((m) => m.tenant === t.slug));
      const resolved = resolveWaves(plan.waves, moving);
      const waves = rolloutWaves(resolved, plan.waves, loaded, environment, policies);
      const version = [...new Set(moves.flatMap((m) => m.changes.map((c) => c.tag ?? '')))].join(',');
      const id = randomUUID();
      const row = await db.transaction(async (trx) => {
        const inserted = await insertRollout(trx, {
          id,
          organization_id: caller.organizationId,
          project_id: project.id,
          source_environment: body.sourceEnvironment,
          environment,
          plan: {
            waves,
            rollbackOnHalt: plan.rollbackOnHalt,
            liftPinsWhenVerifiedUpstream: plan.liftPinsWhenVerifiedUpstream,
            version,
          },
          services: body.services ?? null,
          status: 'Running',
          current_wave: 0,
          waves: waves.map(() => ({ state: 'Pending', promotionIds: [], measurements: [], reason: null })),
          workflow_id: rolloutWorkflowId(id, project.slug, environment),
          created_by: caller.principal.userId,
          created_by_actor: auditActor(caller).actor,
        });
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'rollout.start',
            category: 'deployment',
            projectId: project.id,
            resourceType: 'rollout',
            resourceId: id,
            workflowId: inserted.workflow_id,
            details: {
              sourceEnvironment: body.sourceEnvironment,
              environment,
              version,
              waves: waves.map((w) => ({ name: w.name, tenants: w.tenants, soakSeconds: w.soakSeconds })),
            },
          }),
        );
        return inserted;
      });
      await ensureWorkflow(row, project.slug);
      return rolloutView(row, project.slug);
    },

    async list(caller: OrgCaller, slug: string) {
      const project = await deps.projects.projectOf(caller, slug);
      const rows = await listRollouts(db, caller.organizationId, project.id, 100);
      return { items: rows.map((r) => rolloutView(r, project.slug)), nextCursor: null };
    },

    async get(caller: OrgCaller, id: string) {
      const row = await rolloutOf(caller, id);
      const project = await findProjectById(db, caller.organizationId, row.project_id);
      if (!project) throw new NotFound('rollout not found');
      return rolloutView(row, project.slug);
    },

    /** The project of a rollout, for the route's action (`projects.{slug}.rollouts.*`); 404 like a missing id. */
    async actionScope(caller: OrgCaller, id: string): Promise<{ slug: string }> {
      return { slug: (await this.get(caller, id)).project };
    },

    /** pause, resume, abort or skip the current soak, each with a reason (audited by the workflow). */
    async act(caller: OrgCaller, id: string, action: RolloutAction, reason: string) {
      const row = await rolloutOf(caller, id);
      try {
        await temporal.workflow
          .getHandle(row.workflow_id)
          .executeUpdate(UPDATES[action], { args: [{ actor: auditActor(caller), reason }] });
      } catch (err) {
        throw updateRefusal(err, `rollout is ${row.status}`, ROLLOUT_FAILURE, []);
      }
      return this.get(caller, id);
    },

    async approve(caller: OrgCaller, id: string, comment: string | undefined) {
      const userId = caller.principal.userId;
      if (userId === null) throw new Forbidden('approvals are given by people: sign in as a user');
      const row = await rolloutOf(caller, id);
      const approver = await approverProfile(db, caller.organizationId, userId);
      try {
        await temporal.workflow
          .getHandle(row.workflow_id)
          .executeUpdate(approveWaveUpdate, { args: [{ approver, actor: auditActor(caller), comment }] });
      } catch (err) {
        const forbidden = [ROLLOUT_FAILURE.selfApproval, ROLLOUT_FAILURE.notEligible];
        throw updateRefusal(err, `rollout is ${row.status}`, ROLLOUT_FAILURE, forbidden);
      }
      return this.get(caller, id);
    },

    /** Starts the workflows rollout rows are missing (a crash between the row's commit and the start). */
    async reconcile(limit = 100): Promise<number> {
      return reconcileRows(
        (before, max) => listUnstartedRollouts(db, before, max),
        async (row) => {
          const loaded = await loadProject(db, row.organization_id, row.project_id, deps);
          if (loaded) await ensureWorkflow(row, loaded.project.slug);
        },
        limit,
      );
    },
  };
}
