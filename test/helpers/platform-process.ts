import { exited, spawnScript } from './child-process';
import { harnessState } from './harness-state';
import { freePort } from './net';
import { untilAnswering } from './ready';
import { sharedSettings, testEnv, type TestPlatform } from './test-platform';

export type ProcessRole = 'api' | 'worker';

export interface PlatformProcess {
  role: ProcessRole;
  child: ReturnType<typeof spawnScript>;
  /** The API's base URL (an API process), or the worker's metrics URL (a worker process). */
  url: string;
  /** The environment it was started with (to start it again the same way, on the same port). */
  env: Record<string, string>;
}

/**
 * The environment of a split-mode process joining the deployment of `platform` (an in-process test platform): its
 * database, Temporal task queues and shared settings (keys, PUBLIC_URL, GIT_REPOSITORIES_DIR), and the prebuilt
 * workflow bundle; the platform's own DATA_DIR unless `env` names another.
 */
export function deploymentEnv(platform: TestPlatform, env: Record<string, string> = {}): Record<string, string> {
  return {
    ...testEnv(platform.database, platform.config.temporal.taskQueuePrefix),
    // Split mode refuses to start without the deployment's shared keys and public URL (docs/operations.md).
    ...sharedSettings(platform.config),
    WORKFLOW_BUNDLE_PATH: harnessState().bundlePath,
    LOG_LEVEL: 'warn',
    // These processes are the ones tests kill: their workflows move to a live worker after 2 s, not the SDK's 10 s.
    WORKER_STICKY_TIMEOUT: '2s',
    ...env,
  };
}

/**
 * `scripts/serve.ts api|worker` (`npm run api` / `npm run worker`) as a real child process; ready when the API's
 * /healthz answers, or the worker's metrics server (started once its Temporal workers run) does. `env` is complete:
 * build it with deploymentEnv. A port of its own is picked unless `env` names one (PORT, WORKER_METRICS_PORT).
 */
export async function startPlatformProcess(role: ProcessRole, env: Record<string, string>): Promise<PlatformProcess> {
  const portVar = role === 'api' ? 'PORT' : 'WORKER_METRICS_PORT';
  const port = env[portVar] && env[portVar] !== '0' ? env[portVar] : String(await freePort());
  const full = { ...env, [portVar]: port };
  const child = spawnScript('scripts/serve.ts', [role], full);
  const url = `http://127.0.0.1:${port}`;
  await untilAnswering(child, role === 'api' ? `${url}/healthz` : `${url}/metrics`, 120_000);
  return { role, child, url, env: full };
}

/** The same process started again with the environment (and port) it had. */
export const restartPlatformProcess = (p: PlatformProcess) => startPlatformProcess(p.role, p.env);

/** Stops a process with a signal; resolves with its exit code or the signal's name. */
export async function stopPlatformProcess(p: PlatformProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<number | string> {
  p.child.kill(signal);
  return exited(p.child);
}

/** An API-only process of its own sharing the platform's database, DATA_DIR and Temporal task queues. */
export function startApiProcess(platform: TestPlatform, env: Record<string, string> = {}): Promise<PlatformProcess> {
  return startPlatformProcess('api', deploymentEnv(platform, env));
}
