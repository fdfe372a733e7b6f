import path from 'node:path';
import { type Env, readBool, readDurationMs, readInt, readString } from './parse';

export interface GitopsConfig {
  /**
   * GIT_REPOSITORIES_DIR (default `DATA_DIR/git`): the hosted repositories' folder. With the object store, the only
   * folder the platform's processes must share (a POSIX shared volume such as NFS, docs/operations.md); commits are
   * written in it only under the PostgreSQL advisory lock of their repository.
   */
  repositoriesDir: string;
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
  /**
   * GIT_COMMIT_PATIENCE (default 6 h): how long a commit whose first attempts failed through the infrastructure (a full
   * disk, a missing Git volume, a lock timeout) keeps retrying, on any worker, before its release, promotion or image
   * update fails. Passed into each workflow that commits; a refusal on the merits fails at once.
   */
  commitPatienceMs: number;
  /**
   * GIT_DIRECT_COMMIT (default on): the API process that took a file write, bulk update or generate commits it itself
   * through its commit path (no Temporal queue on the request path); a write it cannot finish goes to the commit
   * workflow. Off, every write goes through the commit workflow on the `git` queue.
   */
  directCommit: boolean;
}

export function loadGitopsConfig(env: Env, dataDir: string): GitopsConfig {
  return {
    repositoriesDir: path.resolve(readString(env, 'GIT_REPOSITORIES_DIR', path.join(dataDir, 'git'))),
    remoteAllowHttp: readBool(env, 'GIT_REMOTE_ALLOW_HTTP', false),
    workerConcurrency: readInt(env, 'GIT_WORKER_CONCURRENCY', 4, 1, 100),
    maintenanceIntervalMs: readDurationMs(env, 'GIT_MAINTENANCE_INTERVAL', 3_600_000),
    commitPatienceMs: readDurationMs(env, 'GIT_COMMIT_PATIENCE', 6 * 3_600_000),
    directCommit: readBool(env, 'GIT_DIRECT_COMMIT', true),
  };
}
