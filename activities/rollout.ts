import { ApplicationFailure } from '@temporalio/activity';
import type { AuditService } from '../src/audit/audit-service';
import type { Db, Tx } from '../src/db/knex';
import { Unprocessable } from '../src/errors';
import { recordDomainEvent, type DomainEventType } from '../src/events/domain-event-repository';
import { renderDigest } from '../src/gitops/commit-path';
import type { CommitRequest } from '../src/gitops/commit-path';
import { loadProject, type LoadedProject } from '../src/gitops/delivery-model';
import { renderAll } from '../src/gitops/manifests';
import type { WorkloadSources } from '../src/gitops/workload-sources';
import { derivedUuid } from '../src/db/derived-uuid';
import { imageMoves, planMoves, withMoves } from '../src/promotions/promotion-plan';
import type { Move } from '../src/promotions/promotion-workflow-contract';
import { skipPinned } from '../src/pins/pin-repository';
import {
  findPromotion,
  insertPromotion,
  markPromotionsSuperseded,
  markPromotionWorkflowStarted,
} from '../src/promotions/promotion-repository';
import { promotionWorkflowId } from '../src/promotions/promotion-workflow-contract';
import { lockRollout, MEASUREMENTS_KEPT, updateRollout, type RolloutRow } from '../src/rollouts/rollout-repository';
import { FINAL_ROLLOUT_STATUSES, type RolloutStep } from '../src/rollouts/rollout-workflow-contract';
import { creatorOf } from '../src/temporal/workflow-rows';

export interface RolloutActivityDeps {
  db: Db;
  audit: AuditService;
  sources: WorkloadSources;
  config: { publicUrl: string };
}

const gone = (id: string) => ApplicationFailure.nonRetryable(`rollout ${id} not found`, 'RolloutGone');

/**
 * What one wave's promotion moves (null: nothing). A promotion's rollout takes the source environment's versions where
 * the target runs others; an image rollout (no source environment) sets its change on the wave's tenants that run
 * another tag, skipping (and reporting) those pinned now, as a bulk image update does.
 */
async function waveMoves(
  trx: Tx,
  row: RolloutRow,
  loaded: LoadedProject,
  tenants: string[],
): Promise<{ moves: Move[]; skipped: { tenant: string; reason: string }[] } | null> {
  const { source_environment: source, environment, plan } = row;
  if (source === null) {
    const pairs = tenants.map((tenant) => ({ tenant, environment }));
    const { kept, skipped } = await skipPinned(trx, row.project_id, pairs);
    const moves = plan.change
      ? imageMoves(
          loaded,
          environment,
          kept.map((p) => p.tenant),
          plan.change,
        )
      : [];
    return moves.length === 0 ? null : { moves, skipped: skipped.map(({ tenant, reason }) => ({ tenant, reason })) };
  }
  try {
    const request = { sourceEnvironment: source, targetEnvironment: environment, tenants };
    return { moves: planMoves(loaded, { ...request, services: row.services ?? undefined }), skipped: [] };
  } catch (err) {
    if (err instanceof Unprocessable) return null;
    throw err;
  }
}

/** The rollout workflow's side effects: each wave's promotion row, every step on the row with its audit entry. */
export function createRolloutActivities(deps: RolloutActivityDeps) {
  const { db, audit, sources, config } = deps;
  async function locked<T>(id: string, work: (trx: Tx, row: RolloutRow) => Promise<T>): Promise<T> {
    return db.transaction(async (trx) => {
      const row = await lockRollout(trx, id);
      if (!row) throw gone(id);
      return work(trx, row);
    });
  }
  const load = (trx: Tx, row: RolloutRow) =>
    loadProject(trx, row.organization_id, row.project_id, { publicUrl: config.publicUrl, sources });

  return {
    /**
     * The promotion of one wave's tenants (attempt `attempt`, a derived id: a retry finds it), recorded as started in
     * its own transaction because the rollout workflow starts it as its child. Null when the wave has nothing to move.
     */
    async startRolloutWave(input: { rolloutId: string; wave: number; attempt: number }) {
      return locked(input.rolloutId, async (trx, row) => {
        const promotionId = derivedUuid(`rollout:${row.id}:${input.wave}:${input.attempt}`);
        const existing = await findPromotion(trx, row.organization_id, promotionId);
        if (existing) return { promotionId, workflowId: existing.workflow_id };
        // Superseded by a newer image rollout of the same workload and environment: no wave of it starts any more.
        if (row.status === 'Superseded') return null;
        const wave = row.plan.waves[input.wave];
        const loaded = await load(trx, row);
        if (!wave || !loaded) throw gone(row.id);
        const planned = await waveMoves(trx, row, loaded, wave.tenants);
        if (!planned) return null;
        const { moves, skipped } = planned;
        const workflowId = promotionWorkflowId(promotionId, {
          project: loaded.project.slug,
          tenants: moves.map((m) => m.tenant),
          source: row.source_environment ?? 'image',
          target: row.environment,
        });
        const requester = creatorOf(row);
        await insertPromotion(trx, {
          id: promotionId,
          organization_id: row.organization_id,
          project_id: row.project_id,
          source_environment: row.source_environment,
          target_environment: row.environment,
          moves,
          workflow_id: workflowId,
          created_by: row.created_by,
          created_by_actor: row.created_by_actor,
        });
        await markPromotionWorkflowStarted(trx, promotionId);
        await audit.append(trx, {
          organizationId: row.organization_id,
          ...requester,
          action: 'promotion.request',
          category: 'promotion',
          projectId: row.project_id,
          resourceType: 'promotion',
          resourceId: promotionId,
          workflowId,
          details: {
            sourceEnvironment: row.source_environment,
            environment: row.environment,
            tenants: moves.map((m) => m.tenant),
            moves,
            rolloutId: row.id,
            wave: wave.name,
            ...(skipped.length > 0 ? { skipped } : {}),
          },
        });
        const waves = row.waves.map((w, i) =>
          i === input.wave ? { ...w, state: 'Deploying' as const, promotionIds: [...w.promotionIds, promotionId] } : w,
        );
        await updateRollout(trx, row.id, { waves, current_wave: input.wave, status: 'Running', status_reason: null });
        return { promotionId, workflowId };
      });
    },

    /** One step of the rollout on its row (status, wave state, measurement) with its audit entry and event. */
    async recordRolloutStep(step: RolloutStep): Promise<void> {
      await locked(step.rolloutId, async (trx, row) => {
        // A rollback sets back every tenant the rollout's promotions moved: the earlier waves it deployed too.
        const rolledBack = step.action === 'rollout.rollback';
        const waves = row.waves.map((w, i) => {
          if (rolledBack && i < step.wave && w.promotionIds.length > 0) return { ...w, state: 'RolledBack' as const };
          if (i !== step.wave) return w;
          const measurements = step.measurement ? [...w.measurements, step.measurement] : w.measurements;
          return {
            ...w,
            state: step.waveState ?? w.state,
            reason: step.reason ?? w.reason,
            measurements: measurements.slice(-MEASUREMENTS_KEPT),
          };
        });
        // A final status stays: `Superseded` is written by its Update while a step of the run may still be recording.
        const final = FINAL_ROLLOUT_STATUSES.includes(row.status);
        const reason = final
          ? row.status_reason
          : step.status === 'Running'
            ? null
            : (step.reason ?? row.status_reason);
        await updateRollout(trx, row.id, {
          status: final ? row.status : step.status,
          status_reason: reason,
          current_wave: step.wave,
          waves,
        });
        // Superseded: its waves' promotions are refused at their commit from now on (none lands after the newer's).
        if (step.supersededBy) {
          const promotionIds = row.waves.flatMap((w) => w.promotionIds);
          await markPromotionsSuperseded(trx, promotionIds, step.supersededBy);
        }
        const wave = row.plan.waves[step.wave];
        const entry = await audit.append(trx, {
          organizationId: row.organization_id,
          ...step.actor,
          action: step.action,
          category: 'deployment',
          projectId: row.project_id,
          resourceType: 'rollout',
          resourceId: row.id,
          workflowId: step.workflowId,
          status: step.action === 'rollout.halt' ? 'failure' : 'success',
          details: {
            environment: row.environment,
            wave: wave?.name ?? null,
            tenants: wave?.tenants ?? [],
            status: step.status,
            waveState: step.waveState ?? null,
            reason: step.reason ?? null,
            measurement: step.measurement ?? null,
            ...(step.supersededBy ? { supersededBy: step.supersededBy } : {}),
          },
        });
        if (step.event) {
          await recordDomainEvent(trx, {
            organizationId: row.organization_id,
            projectId: row.project_id,
            type: step.event as DomainEventType,
            payload: {
              rolloutId: row.id,
              environment: row.environment,
              wave: wave?.name,
              reason: step.reason,
              auditId: entry.id,
            },
          });
        }
      });
    },

    /**
     * The one commit rolling back every tenant the rollout's committed promotions moved to the tag it ran before
     * (pinned by the commit's operation); null when none committed.
     */
    async prepareRolloutRollback(input: { rolloutId: string; workflowId: string; reason: string }) {
      return locked(input.rolloutId, async (trx, row): Promise<CommitRequest | null> => {
        // Superseded: the newer rollout moves these tenants on; setting them back would move them backward.
        if (row.status === 'Superseded') return null;
        const moves = new Map<
          string,
          { tenant: string; tenantId: string; changes: { workload: string; tag: string }[] }
        >();
        for (const id of row.waves.flatMap((w) => w.promotionIds)) {
          const promotion = await findPromotion(trx, row.organization_id, id);
          if (!promotion?.commit_sha) continue;
          for (const move of promotion.moves) {
            const changes = (move.previous ?? []).flatMap((p) => (p.tag ? [{ workload: p.workload, tag: p.tag }] : []));
            if (changes.length > 0 && !moves.has(move.tenant)) moves.set(move.tenant, { ...move, changes });
          }
        }
        const loaded = await load(trx, row);
        if (moves.size === 0 || !loaded) return null;
        const tenants = new Set(moves.keys());
        const files = renderAll(
          withMoves(loaded.model, row.environment, [...moves.values()]),
          (t) => tenants.has(t.tenant) && t.environment === row.environment,
        );
        const actor = { ...creatorOf(row), userId: null, actorType: 'system' as const, actor: 'rollout-workflow' };
        return {
          organizationId: row.organization_id,
          projectId: row.project_id,
          idempotencyKey: `rollout-${row.id}-rollback-${derivedUuid(input.reason).slice(0, 8)}`,
          workflowId: input.workflowId,
          message: `Roll back rollout ${row.id} in ${row.environment}: ${[...tenants].join(', ')}`,
          actor: { ...actor, email: null },
          operation: {
            type: 'rollout-rollback',
            rolloutId: row.id,
            environment: row.environment,
            moves: [...moves.values()],
            digest: renderDigest(files),
            reason: input.reason,
          },
        };
      });
    },
  };
}
