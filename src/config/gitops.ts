import { type Env, readBool, readDurationMs, readInt } from './parse';

export interface GitopsConfig {
  /**
   * GIT_REMOTE_ALLOW_HTTP: accept plain `http://` external remotes (a local mirror, tests). Off by default: a remote's
   * token travels in every push, so only HTTPS remotes are accepted.
   */
  remoteAllowHttp: boolean;
  /**
   * GIT_WORKER_CONCURRENCY: git-queue activities one worker process runs at once. A commit holds a database connection
   * while it waits for its repository's lock, so this stays well under DATABASE_POOL_MAX: further writes wait in
   * Temporal's queue, not in the connection pool the rest of the process needs.
   */
  workerConcurrency: number;
  /**
   * GIT_MAINTENANCE_INTERVAL: how often a Temporal schedule runs `git gc --auto` over every hosted repository (busy
   * repositories are also maintained every few hundred commits and after large generates; never in a request).
   */
  maintenanceIntervalMs: number;
}

export function loadGitopsConfig(env: Env): GitopsConfig {
  return {
    remoteAllowHttp: readBool(env, 'GIT_REMOTE_ALLOW_HTTP', false),
    workerConcurrency: readInt(env, 'GIT_WORKER_CONCURRENCY', 4, 1, 100),
    maintenanceIntervalMs: readDurationMs(env, 'GIT_MAINTENANCE_INTERVAL', 3_600_000),
  };
}
