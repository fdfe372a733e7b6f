import { type Env, readDurationMs, readUrl } from './parse';

export interface ReleasesConfig {
  /**
   * RELEASE_SYNC_TIMEOUT: how long a committed release waits for the controller's sync report before it ends Failed
   * (passed into each release workflow, so tests can shorten it).
   */
  syncTimeoutMs: number;
  /**
   * RELEASE_QUEUE_POLL: how often a release waiting for its target looks again. The release ahead of it signals it
   * when it ends; the poll only covers a signal that could not be delivered.
   */
  queuePollMs: number;
  /**
   * TEMPORAL_UI_URL: base of the Temporal Web UI, for the workflow link of a release. Unset: the embedded dev server's
   * UI when Temporal is embedded, else no link.
   */
  temporalUiUrl: string | undefined;
  /** RELEASE_RECONCILE_INTERVAL: how often a worker starts workflows that release rows are missing. */
  reconcileIntervalMs: number;
}

export function loadReleasesConfig(env: Env, embeddedUiUrl: string | undefined): ReleasesConfig {
  return {
    syncTimeoutMs: readDurationMs(env, 'RELEASE_SYNC_TIMEOUT', 30 * 60_000),
    queuePollMs: readDurationMs(env, 'RELEASE_QUEUE_POLL', 30_000),
    reconcileIntervalMs: readDurationMs(env, 'RELEASE_RECONCILE_INTERVAL', 60_000),
    temporalUiUrl: readUrl(env, 'TEMPORAL_UI_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? embeddedUiUrl,
  };
}
