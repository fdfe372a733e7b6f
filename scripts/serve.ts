import { exitOnConfigError, splitModeConfigFromProcess, type Config } from '../src/config';
import { createLogger, errorFields } from '../src/logging/logger';
import { runPlatform } from './platform';
import type { PlatformRoles } from '../src/runtime/platform-roles';
import { externalEndpoints } from '../src/runtime/require-external';
import { onShutdownSignal } from '../src/runtime/signals';
import { SelfCheckFailed } from '../src/runtime/self-check-at-start';

/** Production entry points: `serve.js api` (API only) or `serve.js worker` (worker only), scaled out separately. */
const role = process.argv[2];
const roles: Record<string, PlatformRoles> = {
  api: { api: true, worker: false, migrate: false },
  worker: { api: false, worker: true, migrate: false },
};

async function main(config: Config, selected: PlatformRoles): Promise<void> {
  const log = createLogger(config.logLevel, { process: role });
  // Before the start: /readyz answers 200 before it ends, and a SIGTERM sent then must stop the process in order, not
  // kill it. A signal during the start waits for it.
  const starting = runPlatform(config, externalEndpoints(config), selected, log);
  onShutdownSignal(log, config.shutdownDrainDelayMs + config.shutdownGraceMs * 3 + 15_000, async () => {
    const started = await starting.catch(() => null);
    await started?.stop();
  });
  const platform = await starting;
  log.info('started', { role, url: platform.http?.url });
}

const selected = role ? roles[role] : undefined;
if (!selected) {
  process.stderr.write('usage: serve <api|worker>\n');
  process.exit(2);
}
let config: Config;
try {
  config = splitModeConfigFromProcess();
  externalEndpoints(config);
} catch (err) {
  exitOnConfigError(err);
}
main(config, selected).catch((err: unknown) => {
  if (err instanceof SelfCheckFailed) {
    // Settings that disagree with the deployment's are a configuration error (EX_CONFIG), like a missing one.
    process.stderr.write(`start-up self-check failed: ${err.message}\n`);
    process.exit(78);
  }
  createLogger('error').error('start failed', errorFields(err));
  process.exit(1);
});
