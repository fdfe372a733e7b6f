import path from 'node:path';
import { ConfigError, configFromProcess, exitOnConfigError, type Config } from '../src/config';
import { createLogger, errorFields, type Logger } from '../src/logging/logger';
import { resolveEndpoints } from '../src/runtime/embedded';
import { runPlatform } from './platform';
import { onShutdownSignal } from '../src/runtime/signals';

/** The embedded services and the platform on them, and how to stop both. */
async function startAll(config: Config, log: Logger) {
  const endpoints = await resolveEndpoints(config, log);
  let running;
  try {
    running = await runPlatform(config, endpoints, { api: true, worker: true, migrate: true }, log);
  } catch (err) {
    await endpoints.stop();
    throw err;
  }
  const platform = running;
  const stop = async () => {
    await platform.stop();
    await endpoints.stop();
  };
  return { endpoints, running, stop };
}

/** `npm start`: everything in one command, embedded PostgreSQL and Temporal unless external ones are configured. */
async function main(config: Config): Promise<void> {
  const log = createLogger(config.logLevel, { process: 'platform' });
  const started = Date.now();
  // Before anything starts: /readyz answers 200 before the start ends, and a SIGTERM sent on it (an orchestrator, a
  // test) once met no handler and killed the process, leaving PostgreSQL and the dev server running. A signal during
  // the start waits for it, then stops what it started.
  const starting = startAll(config, log);
  onShutdownSignal(log, config.shutdownGraceMs * 3 + 15_000, async () => {
    // A start that failed stopped what it had started (main's failure path exits).
    const run = await starting.catch(() => null);
    await run?.stop();
  });
  const { endpoints, running } = await starting;
  // The public URL is what a browser must open (the refresh Origin check accepts it); by default it is where we listen.
  const listening = running.http?.url ?? '-';
  const api =
    new URL(config.publicUrl).origin === listening ? listening : `${config.publicUrl} (listening on ${listening})`;
  // One line per service, where it is; the credentials in DATABASE_URL never reach the output.
  const database = new URL(endpoints.databaseUrl);
  const lines = [
    `PostgreSQL:  ${database.host}${config.databaseUrl ? '' : ` (embedded, ${path.resolve(config.dataDir, 'postgres')})`}`,
    `Temporal:    ${endpoints.temporalAddress}${endpoints.temporalUiUrl ? `, UI ${endpoints.temporalUiUrl}` : ''}`,
    `API:         ${api}  (reference: ${listening}/api/docs)`,
    `Agents:      ${running.agents ? `${config.clusters.grpcHost}:${running.agents.port} (gRPC)` : '-'}`,
    `Ready in ${Date.now() - started} ms. Ctrl-C stops everything.`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

let config: Config;
try {
  config = configFromProcess();
} catch (err) {
  exitOnConfigError(err);
}
main(config).catch((err: unknown) => {
  // A setting that only proves wrong at start (DATA_DIR out of reach of PostgreSQL) stops like a bad value.
  if (err instanceof ConfigError) exitOnConfigError(err);
  createLogger('error').error('start failed', errorFields(err));
  process.exit(1);
});
