import { ConfigError, type Env, readDurationMs, readInt } from './parse';

/** Polling of external registries by watch subscriptions (docs/automation.md "External registries"). */
export interface WatchConfig {
  /** WATCH_POLL_INTERVAL: how often each external registry is polled (default 5m). */
  pollIntervalMs: number;
  /**
   * WATCH_POLL_MIN_INTERVAL: the floor of the interval (default 1m); a lower WATCH_POLL_INTERVAL fails at start.
   * Operators lower it only for tests against their own registry.
   */
  minPollIntervalMs: number;
  /** WATCH_BACKOFF_INITIAL / WATCH_BACKOFF_MAX: the wait after a 429 or failure, doubling up to the max, jittered. */
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** WATCH_REGISTRY_CONCURRENCY: repositories of one registry requested at once (default 4). */
  concurrency: number;
  /** WATCH_TAG_PAGE_SIZE: `n` of each tag-list page; WATCH_TAG_MAX_PAGES: pages followed at most. */
  tagPageSize: number;
  tagMaxPages: number;
  /** WATCH_POLLS_PER_RUN: polls before the registry's workflow continues as new (bounded history). */
  pollsPerRun: number;
}

export function loadWatchConfig(env: Env): WatchConfig {
  const minPollIntervalMs = readDurationMs(env, 'WATCH_POLL_MIN_INTERVAL', 60_000);
  const pollIntervalMs = readDurationMs(env, 'WATCH_POLL_INTERVAL', 5 * 60_000);
  if (pollIntervalMs < minPollIntervalMs) {
    throw new ConfigError(`WATCH_POLL_INTERVAL must be at least WATCH_POLL_MIN_INTERVAL (${minPollIntervalMs} ms)`);
  }
  const backoffInitialMs = readDurationMs(env, 'WATCH_BACKOFF_INITIAL', 10_000);
  const backoffMaxMs = readDurationMs(env, 'WATCH_BACKOFF_MAX', 15 * 60_000);
  if (backoffMaxMs < backoffInitialMs)
    throw new ConfigError('WATCH_BACKOFF_MAX must be at least WATCH_BACKOFF_INITIAL');
  return {
    pollIntervalMs,
    minPollIntervalMs,
    backoffInitialMs,
    backoffMaxMs,
    concurrency: readInt(env, 'WATCH_REGISTRY_CONCURRENCY', 4, 1, 64),
    tagPageSize: readInt(env, 'WATCH_TAG_PAGE_SIZE', 1000, 1, 10_000),
    tagMaxPages: readInt(env, 'WATCH_TAG_MAX_PAGES', 50, 1, 1000),
    pollsPerRun: readInt(env, 'WATCH_POLLS_PER_RUN', 100, 1, 500),
  };
}
