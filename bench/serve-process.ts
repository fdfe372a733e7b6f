import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../src/net/free-port';
import { repoRoot } from '../src/paths';

/**
 * An API or worker process (`scripts/serve.ts`, the Helm chart's two deployments) joining a bench platform
 * (`startBenchPlatform`'s `joinEnv`: same database, Temporal and data folder); resolves once it answers: an API's
 * /healthz on its port, a worker's /readyz on its metrics port (its pollers started). `stop` resolves once it exited.
 */
export async function startServeProcess(role: 'api' | 'worker', env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot(), 'scripts/serve.ts'), role], {
    cwd: repoRoot(),
    env: { ...process.env, ...env, [role === 'api' ? 'PORT' : 'WORKER_METRICS_PORT']: String(port) },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; ;) {
    if ((await fetch(`${url}/${role === 'api' ? 'healthz' : 'readyz'}`).catch(() => null))?.ok) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return { url, pid: child.pid!, stop: () => (child.kill('SIGTERM'), exited) };
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${role} process on ${port} did not start`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
