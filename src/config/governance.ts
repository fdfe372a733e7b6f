import { type Env, readDurationMs } from './parse';

export interface GovernanceConfig {
  /**
   * BREAK_GLASS_MINUTE: how long one minute of a break-glass session's `durationMinutes` lasts (passed into each
   * session's workflow; only tests shorten it).
   */
  breakGlassMinuteMs: number;
  /** FREEZE_LIST_HORIZON: how far ahead freeze listings show upcoming windows. */
  freezeHorizonMs: number;
}

export function loadGovernanceConfig(env: Env): GovernanceConfig {
  return {
    breakGlassMinuteMs: readDurationMs(env, 'BREAK_GLASS_MINUTE', 60_000),
    freezeHorizonMs: readDurationMs(env, 'FREEZE_LIST_HORIZON', 30 * 86_400_000),
  };
}
