import fs from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { createGitActivities } from '../activities/git';
import type { Services } from '../src/runtime/services';
import type { Metrics } from '../src/http/metrics';
import { repoRoot } from '../src/paths';

type GitActivityDeps = Parameters<typeof createGitActivities>[0] & Pick<Services, 'config'>;

export const PREBUILT_BUNDLE = path.join(repoRoot(), 'dist', 'workflow-bundle.js');

/** Counts failed attempts per activity without changing what the activity throws. */
function instrument<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: T,
  metrics: Metrics,
): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        metrics.activityFailures.inc({ activity: name });
        throw err;
      }
    };
  }
  return wrapped as T;
}

interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  /** The services the activities use (the composition root passes them). */
  deps: ActivityDeps & GitActivityDeps;
  metrics: Metrics;
  shutdownGraceMs: number;
  /** WORKER_STICKY_TIMEOUT (src/config). */
  stickyTimeoutMs: number;
  /** Prebuilt bundle path; defaults to dist/workflow-bundle.js when present, else bundles from source. */
  bundlePath?: string;
}

/** The two workers of a worker process: the `platform` queue's workflows and activities, and the `git` queue's. */
export interface ProcessWorkers {
  platform: Worker;
  git: Worker;
}

/**
 * A worker process's workers. One set of commit activities serves both: the `git` queue's activity, and the same
 * commit as a local activity of the workflows that commit within their workflow task (commitOnGitQueue's `local`), so
 * the writes of both kinds to a repository join the same passes (src/gitops/commit-path.ts).
 */
export async function createProcessWorkers(
  opts: WorkerOptions & { platformQueue: string; gitQueue: string },
): Promise<ProcessWorkers> {
  const gitActivities = instrument(createGitActivities(opts.deps), opts.metrics);
  // Only compiled code uses the prebuilt bundle: from source it could be stale, so it is bundled fresh.
  const prebuilt = __filename.endsWith('.js') && fs.existsSync(PREBUILT_BUNDLE) ? PREBUILT_BUNDLE : undefined;
  const bundlePath = opts.bundlePath ?? prebuilt;
  const shutdown = { shutdownGraceTime: opts.shutdownGraceMs, shutdownForceTime: opts.shutdownGraceMs * 2 };
  const platform = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.platformQueue,
    ...(bundlePath ? { workflowBundle: { codePath: bundlePath } } : { workflowsPath: require.resolve('../workflows') }),
    activities: {
      ...instrument(createActivities(opts.deps), opts.metrics),
      commitToRepository: gitActivities.commitToRepository,
    },
    stickyQueueScheduleToStartTimeout: opts.stickyTimeoutMs,
    ...shutdown,
  });
  const git = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.gitQueue,
    activities: gitActivities,
    maxConcurrentActivityTaskExecutions: opts.deps.config.gitops.workerConcurrency,
    ...shutdown,
  });
  return { platform, git };
}
