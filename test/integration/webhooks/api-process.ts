import { exited, spawnScript } from '../../helpers/child-process';
import { eventually, freePort } from '../../helpers/net';
import { sharedSettings, testEnv, type TestPlatform } from '../../helpers/test-platform';

export interface ApiProcess {
  child: ReturnType<typeof spawnScript>;
  url: string;
}

/**
 * An API-only process of its own (`scripts/serve.ts api`, a real child process) on a port of its own, sharing the
 * platform's database, data folder and Temporal task queues; ready when its /healthz answers.
 */
export async function startApiProcess(platform: TestPlatform, env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawnScript('scripts/serve.ts', ['api'], {
    ...testEnv(platform.database, platform.config.temporal.taskQueuePrefix),
    // Split mode refuses to start without the deployment's shared keys and public URL (docs/operations.md).
    ...sharedSettings(platform.config),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok,
    90_000,
    `API process on ${port}: ${child.output()}`,
  );
  return { child, url };
}

/** Stops an API process with a signal; resolves with its exit code or the signal's name. */
export async function stopApiProcess(api: ApiProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<number | string> {
  api.child.kill(signal);
  return exited(api.child);
}
