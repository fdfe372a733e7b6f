import { type Env, readBool, readDurationMs, readInt } from './parse';

export interface WebhooksConfig {
  /** WEBHOOK_BODY_LIMIT_BYTES: inbound webhook bodies past this answer 413 before any signature or parse work. */
  bodyLimitBytes: number;
  /** WEBHOOK_SECRET_OVERLAP: how long a rotated-out secret (and controller token) still verifies. */
  secretOverlapMs: number;
  /** WEBHOOK_COMMIT_WAIT: how long an image update waits for its commit before answering 202 with a status URL. */
  commitWaitMs: number;
  /**
   * WEBHOOK_DIRECT_COMMIT: the API process that verified an image update commits it itself (it then needs the
   * repositories' volume, GIT_REPOSITORIES_DIR); off, every update goes through the project's image-update workflow.
   */
  directCommit: boolean;
}

/** The spec's replay window: older or further in the future is refused; request hashes are kept at least this long. */
export const REPLAY_WINDOW_MS = 5 * 60_000;

export function loadWebhooksConfig(env: Env): WebhooksConfig {
  return {
    bodyLimitBytes: readInt(env, 'WEBHOOK_BODY_LIMIT_BYTES', 65_536, 1_024, 1_048_576),
    secretOverlapMs: readDurationMs(env, 'WEBHOOK_SECRET_OVERLAP', 24 * 3_600_000),
    commitWaitMs: readDurationMs(env, 'WEBHOOK_COMMIT_WAIT', 5_000),
    directCommit: readBool(env, 'WEBHOOK_DIRECT_COMMIT', true),
  };
}
