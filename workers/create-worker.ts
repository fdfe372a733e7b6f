import fs from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { createGitActivities } from '../activities/git';
import type { Services } from '../src/runtime/services';

type GitActivityDeps = Parameters<typeof createGitActivities>[0] & Pick<Services, 'config'>;
import type { Metrics } from '../src/http/metrics';
import { repoRoot } from '../src/paths';

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

export interface WorkerOptions<D> {
  connection: NativeConnection;
  namespace: string;
  /** The services this queue's activities use (the composition root passes them). */
  deps: D;
  metrics: Metrics;
  taskQueue: string;
  shutdownGraceMs: number;
  /** Prebuilt bundle path; defaults to dist/workflow-bundle.js when present, else bundles from source. */
  bundlePath?: string;
}

export async function createPlatformWorker(opts: WorkerOptions<ActivityDeps>): Promise<Worker> {
  // Only compiled code uses the prebuilt bundle: from source it could be stale, so it is bundled fresh.
  const prebuilt = __filename.endsWith('.js') && fs.existsSync(PREBUILT_BUNDLE) ? PREBUILT_BUNDLE : undefined;
  const bundlePath = opts.bundlePath ?? prebuilt;
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    ...(bundlePath ? { workflowBundle: { codePath: bundlePath } } : { workflowsPath: require.resolve('../workflows') }),
    activities: instrument(createActivities(opts.deps), opts.metrics),
    shutdownGraceTime: opts.shutdownGraceMs,
    shutdownForceTime: opts.shutdownGraceMs * 2,
  });
}

/**
 * The worker of the `git` task queue: activities only (the one commit path). Its processes own the hosted
 * repositories; the commit workflows themselves run on the platform queue.
 */
export async function createGitWorker(opts: Omit<WorkerOptions<GitActivityDeps>, 'bundlePath'>): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: instrument(createGitActivities(opts.deps), opts.metrics),
    maxConcurrentActivityTaskExecutions: opts.deps.config.gitops.workerConcurrency,
    shutdownGraceTime: opts.shutdownGraceMs,
    shutdownForceTime: opts.shutdownGraceMs * 2,
  });
}
