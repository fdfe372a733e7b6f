import { type Env, readDurationMs } from './parse';

export interface PromotionsConfig {
  /**
   * PROMOTION_RECHECK: how often a Blocked promotion evaluates its causes again (an approval or the end of a freeze
   * wakes it at once; the recheck covers causes that clear elsewhere: a source turning Healthy, a deploy ending).
   */
  recheckMs: number;
  /** PROMOTION_EXPIRY: how long a promotion may stay Blocked before it ends Expired. */
  expiryMs: number;
  /** PROMOTION_RECONCILE_INTERVAL: how often a worker starts workflows that promotion rows are missing. */
  reconcileIntervalMs: number;
}

export function loadPromotionsConfig(env: Env): PromotionsConfig {
  return {
    recheckMs: readDurationMs(env, 'PROMOTION_RECHECK', 30_000),
    expiryMs: readDurationMs(env, 'PROMOTION_EXPIRY', 24 * 60 * 60_000),
    reconcileIntervalMs: readDurationMs(env, 'PROMOTION_RECONCILE_INTERVAL', 60_000),
  };
}
