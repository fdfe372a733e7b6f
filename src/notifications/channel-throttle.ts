import type { ThrottleConfig } from '../config/notifications';
import type { AttemptResult } from '../net/safe-http';

/** Answers that mean "not now": the target is left alone for a while, across deliveries. */
const THROTTLING = new Set([429, 502, 503, 504]);

/**
 * How long to leave a target alone after this answer (null: not at all). A 429 or 503 with `Retry-After` (seconds)
 * gets what it asked for, at most `maxMs`; the others, or no usable header, `defaultMs`.
 */
export function throttlePauseMs(result: AttemptResult, config: ThrottleConfig): number | null {
  if (result.responseStatus === null || !THROTTLING.has(result.responseStatus)) return null;
  if (result.retryAfterMs !== undefined && result.retryAfterMs > 0) return Math.min(result.retryAfterMs, config.maxMs);
  return Math.min(config.defaultMs, config.maxMs);
}

/**
 * Before sending to a throttled target: wait out a pause no longer than `maxWaitMs` (and only when the caller may
 * wait), else skip the send (`throttled` in the log). Null: send now.
 */
export function throttleDecision(
  until: number | null,
  now: number,
  config: ThrottleConfig,
  mayWait: boolean,
): { waitMs: number } | { skip: true } | null {
  if (until === null || until <= now) return null;
  const waitMs = until - now;
  return mayWait && waitMs <= config.maxWaitMs ? { waitMs } : { skip: true };
}
