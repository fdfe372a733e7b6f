import type { Client } from '@temporalio/client';
import type { AuditActor } from '../audit/types';
import type { Queryable } from '../db/knex';
import { Conflict } from '../errors';
import { findPromotion } from '../promotions/promotion-repository';
import { imageChangeText } from '../promotions/promotion-source';
import { PROMOTION_FAILURE, cancelPromotionUpdate } from '../promotions/promotion-workflow-contract';
import { updateRefusal } from '../temporal/update-refusal';
import { creatorOf } from '../temporal/workflow-rows';
import { findRollout, type RolloutRow } from './rollout-repository';
import { FINAL_ROLLOUT_STATUSES, ROLLOUT_FAILURE, supersedeRolloutUpdate } from './rollout-workflow-contract';

/** A refused Update (the workflow ended, or the resource is past what it asks): nothing left to do there. */
function refusedOnly(err: unknown, known: Record<string, string>): void {
  if (!(updateRefusal(err, 'ended', known, []) instanceof Conflict)) throw err;
}

/**
 * Superseding (docs/rollouts.md, decision 0014), as a new revision aborts the one in progress in Argo Rollouts: before
 * an image rollout starts, each older one of its workload and environment still in flight with another tag
 * (`plan.supersedes`, found under a lock when its row was inserted) ends `Superseded` through its workflow's Update,
 * whose step marks its wave promotions refused at their commit, so none lands after the newer rollout's. A wave
 * promotion still waiting for its commit (Evaluating, Blocked) is cancelled; nothing the older one committed is rolled
 * back: the newer rollout moves those tenants on. `start` starts an older rollout whose workflow never started.
 */
export function createSuperseding(deps: {
  db: Queryable;
  temporal: Client;
  start: (row: RolloutRow, projectSlug: string) => Promise<void>;
}) {
  const { db, temporal } = deps;

  /** The superseded rollout's current wave promotion, cancelled when it has not reached its commit. */
  async function cancelWaveInFlight(older: RolloutRow, actor: AuditActor, reason: string): Promise<void> {
    const row = await findRollout(db, older.organization_id, older.id);
    const promotionId = row?.waves[row.current_wave]?.promotionIds.at(-1);
    const promotion = promotionId ? await findPromotion(db, older.organization_id, promotionId) : null;
    if (!promotion || (promotion.status !== 'Evaluating' && promotion.status !== 'Blocked')) return;
    try {
      await temporal.workflow
        .getHandle(promotion.workflow_id)
        .executeUpdate(cancelPromotionUpdate, { args: [{ actor, reason }] });
    } catch (err) {
      refusedOnly(err, PROMOTION_FAILURE);
    }
  }

  return async function supersedeOlder(newer: RolloutRow, projectSlug: string): Promise<void> {
    const change = newer.plan.change;
    if (!change) return;
    const actor = creatorOf(newer);
    const reason = `superseded by rollout ${newer.id} (${imageChangeText(change)})`;
    for (const id of newer.plan.supersedes ?? []) {
      const older = await findRollout(db, newer.organization_id, id);
      if (!older || FINAL_ROLLOUT_STATUSES.includes(older.status)) continue;
      if (older.workflow_started_at === null) await deps.start(older, projectSlug);
      try {
        await temporal.workflow
          .getHandle(older.workflow_id)
          .executeUpdate(supersedeRolloutUpdate, { args: [{ actor, by: newer.id, reason }] });
      } catch (err) {
        refusedOnly(err, ROLLOUT_FAILURE);
        continue;
      }
      await cancelWaveInFlight(older, actor, `its rollout ${older.id} was ${reason}`);
    }
  };
}
