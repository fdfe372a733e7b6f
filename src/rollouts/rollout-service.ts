import type { Client } from '@temporalio/client';
import { approverProfile } from '../approval-policies/approval-gate';
import { Conflict, Forbidden, NotFound, Unprocessable } from '../errors';
import { loadProject } from '../gitops/delivery-model';
import type { WorkloadSources } from '../gitops/workload-sources';
import { auditActor, uuidKey, type OrgCaller } from '../iam/caller';
import { scopedLookup, type OrgDomainDeps } from '../iam/cross-org';
import { findProjectById } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { planMoves } from '../promotions/promotion-plan';
import type { PromotionTiming } from '../promotions/promotion-workflow-contract';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { updateRefusal } from '../temporal/update-refusal';
import { reconcileRows } from '../temporal/workflow-rows';
import { normalizePlan, planCovers } from './rollout-plan';
import { findRolloutPlan, type StoredPlan } from './rollout-plan-repository';
import { findRollout, listRollouts, listUnstartedRollouts } from './rollout-repository';
import { createRolloutStart, type RolloutStartRequest } from './rollout-start';
import { rolloutView } from './rollout-view';
import { bulkRollouts, resolveOver, skipPlan, type BulkUpdate, type Pair, type Resolved } from './plan-resolution';
import {
  ROLLOUT_FAILURE,
  abortRolloutUpdate,
  approveWaveUpdate,
  pauseRolloutUpdate,
  resumeRolloutUpdate,
  skipSoakUpdate,
} from './rollout-workflow-contract';
import { wavePreviews } from './rollout-preview';
import { activeFreezes } from '../freezes/freeze-evaluation';
import { definitionOf, freezesFor } from '../freezes/freeze-repository';

export type RolloutView = ReturnType<typeof rolloutView>;

export type RolloutAction = 'pause' | 'resume' | 'abort' | 'skip-soak';
const UPDATES = {
  pause: pauseRolloutUpdate,
  resume: resumeRolloutUpdate,
  abort: abortRolloutUpdate,
  'skip-soak': skipSoakUpdate,
} as const;

export type RolloutService = ReturnType<typeof createRolloutService>;

/** A request giving a plan and skipping plans (`rollout: "none"`) contradicts itself: 422. */
function refuseSkippedPlan(body: { plan?: unknown; rollout?: 'plan' | 'none' }): void {
  if (body.plan && body.rollout === 'none') {
    throw new Unprocessable('a request giving a plan cannot skip it (rollout "none"): drop one of them');
  }
}

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
  const { db, temporal } = deps;
  const { begin, ensureWorkflow } = createRolloutStart(deps);
  const rolloutOf = scopedLookup(
    deps,
    { table: 'rollouts', column: 'id', resourceType: 'rollout', category: 'deployment', parse: uuidKey },
    findRollout,
  );

  /** The project (not archived) as loaded for planning. */
  async function loadedOf(caller: OrgCaller, slug: string) {
    const project = await deps.projects.projectOf(caller, slug);
    if (project.archived) throw new Conflict('the project is archived');
    const loaded = await loadProject(db, caller.organizationId, project.id, deps);
    if (!loaded) throw new NotFound('project not found');
    return { project, loaded };
  }

  /** The project and what a request moves (422 when nothing would). */
  async function movesOf(caller: OrgCaller, slug: string, body: RolloutStartRequest) {
    const { project, loaded } = await loadedOf(caller, slug);
    return { project, loaded, moves: planMoves(loaded, body) };
  }

  /**
   * The plan a request follows (the one it gives, else the target environment's; null: none) resolved over the
   * tenants that move: 422 naming every problem of the plan or when nothing would move.
   */
  async function resolve(caller: OrgCaller, slug: string, body: RolloutStartRequest): Promise<Resolved | null> {
    const { project, loaded, moves } = await movesOf(caller, slug, body);
    const environment = body.targetEnvironment;
    const stored = body.plan ? null : await findRolloutPlan(db, caller.organizationId, project.id, environment);
    const plan = body.plan ? normalizePlan(body.plan) : stored;
    if (!plan) return null;
    const waves = await resolveOver(db, caller.organizationId, { project, loaded, environment }, plan, moves);
    return { project, plan, moves, waves, planSource: body.plan ? 'request' : 'environment' };
  }

  return {
    /** Resolves the plan's waves over the tenants that move, records the rollout and starts its workflow. */
    async start(caller: OrgCaller, slug: string, body: RolloutStartRequest) {
      const resolved = await resolve(caller, slug, body);
      if (!resolved) {
        throw new Unprocessable(`environment ${body.targetEnvironment} has no rollout plan: set one or give a plan`);
      }
      return begin(caller, body, resolved, 'rollout');
    },

    /**
     * How a promotion request goes: when the target environment has a rollout plan (or the request gives one) it
     * starts a rollout over it instead of moving every tenant at once. `rollout: "none"` skips the environment's plan
     * only under the caller's open break-glass session covering the project and environment (403 otherwise). Null
     * `rollout`: the promotion goes alone, `skippedBy` naming the session that skipped a plan (for its audit entry).
     */
    async forPromotion(
      caller: OrgCaller,
      slug: string,
      body: RolloutStartRequest & { rollout?: 'plan' | 'none' },
    ): Promise<{ rollout: RolloutView | null; skippedBy: string | null }> {
      refuseSkippedPlan(body);
      if (body.rollout !== 'none') {
        const resolved = await resolve(caller, slug, body);
        return { rollout: resolved && (await begin(caller, body, resolved, 'promotion')), skippedBy: null };
      }
      const project = await deps.projects.projectOf(caller, slug);
      return { rollout: null, skippedBy: await skipPlan(db, caller, project, body.targetEnvironment) };
    },

    /**
     * How a bulk image update goes: the pairs of each environment with a rollout plan as an image rollout over it
     * (one commit per wave, `requestedAs: "bulk-update"`), the others by `commitRest` (the bulk update's one commit),
     * called after every rollout resolved (a bad plan refuses the whole request) and before any is recorded.
     * `rollout: "none"` skips the plans only under the caller's open break-glass session covering each (403
     * otherwise, nothing done): every pair goes to `commitRest`. Tenants by slug.
     */
    async forBulkUpdate<T>(
      caller: OrgCaller,
      slug: string,
      body: BulkUpdate,
      commitRest: (pairs: Pair[], details: Record<string, unknown>) => Promise<T>,
      /** The request's Idempotency-Key: a retry answers the rollouts the first one started. */
      key?: string,
    ): Promise<{ rest: T | null; rollouts: RolloutView[]; skipped: (Pair & { reason: string })[] }> {
      if (body.rollout === 'none') {
        const project = await deps.projects.projectOf(caller, slug);
        const skippedPlans = [];
        for (const environment of new Set(body.pairs.map((p) => p.environment))) {
          const breakGlassSessionId = await skipPlan(db, caller, project, environment);
          if (breakGlassSessionId) skippedPlans.push({ environment, breakGlassSessionId });
        }
        // Recorded on each image.update entry, as a promotion's request entry records the plan it skipped.
        const details = skippedPlans.length > 0 ? { rolloutPlanSkipped: skippedPlans } : {};
        return { rest: await commitRest(body.pairs, details), rollouts: [], skipped: [] };
      }
      const { change, rollouts, skipped, rest } = await bulkRollouts(
        db,
        caller.organizationId,
        await loadedOf(caller, slug),
        body,
      );
      const committed = rest.length > 0 ? await commitRest(rest, {}) : null;
      const started = [];
      for (const { environment, resolved } of rollouts) {
        const subject = { sourceEnvironment: null, targetEnvironment: environment, change };
        started.push(await begin(caller, subject, resolved, 'bulk-update', key));
      }
      return { rest: committed, rollouts: started, skipped };
    },

    /**
     * How an image update from the signed webhook or a watch subscription goes to its auto-update environments: per
     * workload, the pairs of each environment with a rollout plan as an image rollout over the plan
     * (`requestedAs: "image-update"`), its id derived from `key` (the request's row), the workload and the
     * environment, so a resend or a re-plan of the request starts nothing twice. `rest`: the pairs of the environments
     * without a plan, which the caller commits at once. Every plan is resolved before any rollout starts. Tenants by
     * slug; the caller skipped pinned and frozen pairs.
     */
    async forImageUpdate(
      caller: OrgCaller,
      /** The caller's project, as the webhook found it (no second read of it on the request's path). */
      project: { id: string; slug: string },
      body: { workloads: string[]; tag: string; pairs: Pair[] },
      key: string,
      /** The project's rollout plans as the caller read them (`rolloutPlanRows`, with its other rows). */
      plans: StoredPlan[],
    ): Promise<{ rollouts: (RolloutView & { workload: string })[]; rest: Pair[] }> {
      // Most updates meet no plan: they are answered before the project's delivery model is loaded (the webhook's
      // request -> commit path stays as short as it was).
      if (!planCovers(plans, body.pairs)) {
        return { rollouts: [], rest: body.pairs };
      }
      const loaded = await loadedOf(caller, project.slug);
      const planned = [];
      for (const workload of body.workloads) {
        planned.push(
          await bulkRollouts(db, caller.organizationId, loaded, { workload, tag: body.tag, pairs: body.pairs }),
        );
      }
      const rollouts = [];
      for (const { change, rollouts: resolvedOnes } of planned) {
        for (const { environment, resolved } of resolvedOnes) {
          const subject = { sourceEnvironment: null, targetEnvironment: environment, change };
          const view = await begin(caller, subject, resolved, 'image-update', `image-update:${key}:${change.workload}`);
          rollouts.push({ ...view, workload: change.workload });
        }
      }
      return { rollouts, rest: planned[0]?.rest ?? body.pairs };
    },

    /** Per environment of a bulk image update with a rollout plan, the waves its image rollout would follow. */
    async previewBulkUpdate(caller: OrgCaller, slug: string, body: BulkUpdate) {
      if (body.rollout === 'none') return [];
      const { project, rollouts } = await bulkRollouts(db, caller.organizationId, await loadedOf(caller, slug), body);
      const freezes = (await freezesFor(db, caller.organizationId, project.id)).map(definitionOf);
      return rollouts.map(({ environment, resolved }) => {
        const target = { projectId: project.id, environment, tenants: resolved.moves.map((m) => m.tenant) };
        return {
          environment,
          plan: resolved.planSource,
          waves: wavePreviews(resolved.waves, activeFreezes(freezes, target, new Date())),
        };
      });
    },

    /**
     * What a promotion request would do, changing nothing: what moves and, when the target has a rollout plan (or the
     * request gives one), the waves the rollout would follow with what each waits for (`rollout: null`: one promotion).
     */
    async previewPromotion(caller: OrgCaller, slug: string, body: RolloutStartRequest & { rollout?: 'plan' | 'none' }) {
      refuseSkippedPlan(body);
      const resolved = body.rollout === 'none' ? null : await resolve(caller, slug, body);
      const { project, moves } = resolved ?? (await movesOf(caller, slug, body));
      const target = {
        projectId: project.id,
        environment: body.targetEnvironment,
        tenants: moves.map((m) => m.tenant),
      };
      const freezes = (await freezesFor(db, caller.organizationId, project.id)).map(definitionOf);
      return {
        sourceEnvironment: body.sourceEnvironment,
        targetEnvironment: body.targetEnvironment,
        moves: moves.map(({ tenant, changes, previous }) => ({ tenant, changes, previous })),
        rollout: resolved && {
          plan: resolved.planSource,
          waves: wavePreviews(resolved.waves, activeFreezes(freezes, target, new Date())),
        },
      };
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
