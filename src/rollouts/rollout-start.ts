import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { derivedUuid } from '../db/derived-uuid';
import { unavailableDependency } from '../http/unavailable-dependency';
import { isUniqueViolation } from '../db/knex';
import { auditActor, orgEntry, type OrgCaller } from '../iam/caller';
import type { OrgDomainDeps } from '../iam/cross-org';
import type { ImageChange } from '../promotions/promotion-plan';
import type { PromotionTiming } from '../promotions/promotion-workflow-contract';
import { SEARCH_ATTRIBUTES, taskQueue } from '../temporal/definitions';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { creatorOf } from '../temporal/workflow-rows';
import type { Resolved } from './plan-resolution';
import type { RolloutPlanInput } from './rollout-plan';
import {
  findRollout,
  insertRollout,
  markRolloutWorkflowStarted,
  openImageRollouts,
  type RolloutRow,
} from './rollout-repository';
import { createSuperseding } from './rollout-superseding';
import { rolloutSourceText, rolloutView } from './rollout-view';
import { rolloutWorkflowId, rolloutWorkflowType } from './rollout-workflow-contract';

export interface RolloutStartRequest {
  sourceEnvironment: string;
  targetEnvironment: string;
  /** Through a promotion request: the tenants it names (slugs or ids); absent: every tenant. */
  tenants?: string[];
  services?: string[];
  /** An explicit plan; absent: the target environment's plan. */
  plan?: RolloutPlanInput;
}

/** What a rollout moves: an environment's versions to another, or (no source environment) an image change. */
export type RolloutSubject = Omit<RolloutStartRequest, 'sourceEnvironment'> & {
  sourceEnvironment: string | null;
  change?: ImageChange;
};

/**
 * What started a rollout: the rollouts API, a promotion request, a bulk update, or the signed image-update webhook or
 * a watch subscription (`image-update`), each to an environment with a plan.
 */
export type RolloutOrigin = 'rollout' | 'promotion' | 'bulk-update' | 'image-update';

/**
 * A start that met Temporal unreachable: the rollout is recorded (row and entry committed), so the request is answered
 * and the service's reconciler starts the workflow once Temporal answers again (a webhook from CI, a promotion request
 * or a bulk update does not fail on an outage it need not wait out). Any other failure is the request's.
 */
function leftToReconciler(err: unknown): void {
  if (unavailableDependency(err) !== 'Temporal') throw err;
}

/**
 * A rollout's start: its row with its `rollout.start` entry in one transaction, then its workflow (row first, the
 * start right after; the service's reconciler starts what a crash or a Temporal outage left unstarted), an image rollout superseding the
 * older ones of its workload and environment first (rollout-superseding.ts).
 */
export function createRolloutStart(
  deps: Pick<OrgDomainDeps, 'db' | 'audit'> & {
    temporal: Client;
    workflows: WorkflowStarter;
    taskQueuePrefix: string;
    promotionTiming: PromotionTiming;
    historyLimit: number;
  },
) {
  const { db, audit, temporal } = deps;

  /**
   * Starts the rollout's workflow; an image rollout first supersedes the older ones it names (nothing of it commits
   * before they stopped committing).
   */
  async function ensureWorkflow(row: RolloutRow, projectSlug: string): Promise<void> {
    await supersedeOlder(row, projectSlug);
    await deps.workflows.start(rolloutWorkflowType, {
      workflowId: row.workflow_id,
      args: [
        {
          rolloutId: row.id,
          organizationId: row.organization_id,
          projectId: row.project_id,
          projectSlug,
          // The workflow names what it moves from by this text only (its current details, its children's summaries).
          sourceEnvironment: rolloutSourceText(row),
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
      summary: `rollout ${rolloutSourceText(row)} -> ${row.environment} in ${row.plan.waves.length} waves`,
      details: `Rollout \`${row.id}\` (/api/v2/rollouts/${row.id})`,
    });
    await markRolloutWorkflowStarted(db, row.id);
  }
  const supersedeOlder = createSuperseding({ db, temporal, start: ensureWorkflow });

  /**
   * Records the rollout over the resolved plan (its `rollout.start` entry in the same transaction), starts it. Under
   * an Idempotency-Key (`key`) its id derives from the key and the environment: a retry answers the rollout the first
   * request started (a concurrent one loses the insert and answers it too) and starts nothing more.
   */
  async function begin(caller: OrgCaller, body: RolloutSubject, resolved: Resolved, via: RolloutOrigin, key?: string) {
    const { project, plan, moves, waves } = resolved;
    const environment = body.targetEnvironment;
    const version = [...new Set(moves.flatMap((m) => m.changes.map((c) => c.tag ?? '')))].join(',');
    const id = key ? derivedUuid(`rollout:${caller.organizationId}:${project.id}:${environment}:${key}`) : randomUUID();
    const started = key ? await findRollout(db, caller.organizationId, id) : null;
    if (started) return rolloutView(started, project.slug);
    const row = await db
      .transaction(async (trx) => {
        const target = { organizationId: caller.organizationId, projectId: project.id, environment };
        const supersedes = body.change ? await openImageRollouts(trx, { ...target, change: body.change }) : [];
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
            ...(body.change ? { change: body.change } : {}),
            ...(supersedes.length > 0 ? { supersedes } : {}),
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
              ...(body.change ? { change: body.change } : {}),
              environment,
              version,
              waves: waves.map((w) => ({ name: w.name, tenants: w.tenants, soakSeconds: w.soakSeconds })),
              requestedAs: via,
              ...(supersedes.length > 0 ? { supersedes } : {}),
            },
          }),
        );
        return inserted;
      })
      .catch(async (err: unknown) => {
        const raced = key && isUniqueViolation(err) ? await findRollout(db, caller.organizationId, id) : null;
        if (!raced) throw err;
        return raced;
      });
    if (row.workflow_started_at === null) await ensureWorkflow(row, project.slug).catch(leftToReconciler);
    return rolloutView(row, project.slug);
  }

  return { begin, ensureWorkflow };
}
