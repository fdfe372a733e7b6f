import { randomBytes } from 'node:crypto';
import { GracefulShutdownPeriodExpiredError, NativeConnection, type Worker } from '@temporalio/worker';
import { createApp } from '../../api/app';
import { listen, type RunningServer } from '../../api/server';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logging/logger';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { createApiServices, type ApiServices } from '../../src/runtime/api-services';
import { closeServices } from '../../src/runtime/services';
import { taskQueue } from '../../src/temporal/definitions';
import { createProcessWorkers } from '../../workers/create-worker';
import { harnessState } from './harness-state';
import { responseRecorder } from './response-recorder';
import { responseCheck } from './response-check';

export { sharedSettings } from '../../src/config/shared-settings';
import { createTestDatabase, type TestDatabase } from './test-db';

export interface TestPlatform {
  config: Config;
  services: ApiServices;
  database: TestDatabase;
  http: RunningServer;
  url: string;
  worker: Worker | null;
  /** Starts (again) an in-process worker on this file's task queue. */
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

/** Environment for a test platform: its own database and task queue prefix on the shared servers. */
export function testEnv(
  database: TestDatabase,
  prefix: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: harnessState().temporalAddress,
    TEMPORAL_TASK_QUEUE_PREFIX: prefix,
    DATA_DIR: `${harnessState().workDir}/data-${prefix}`,
    PORT: '0',
    AGENT_GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

/**
 * A worker's run, ended by a stop: an activity still running when the grace period ends (a slow one, or any one on a
 * busy machine) is cancelled, as a stop is meant to, and fails no test; any other end of the run is the test's error.
 */
function untilStopped(run: Promise<void>): Promise<void> {
  return run.catch((err: unknown) => {
    if (!(err instanceof GracefulShutdownPeriodExpiredError)) throw err;
  });
}

/**
 * The real app on an ephemeral port, a real worker, an isolated database: tests call it over HTTP.
 * `env` overrides configuration the way an operator would; `database` makes it a second process of the deployment
 * that owns that database (its own DATA_DIR and task queues; the owner drops the database); `temporalAddress` is where
 * the API's client reaches Temporal (a proxy the test cuts), its worker still connecting to the run's server.
 */
export async function startTestPlatform(
  opts: { env?: Record<string, string>; worker?: boolean; database?: TestDatabase; temporalAddress?: string } = {},
) {
  installTemporalRuntime();
  const database = opts.database ?? (await createTestDatabase());
  const prefix = `t${randomBytes(4).toString('hex')}-`;
  const config = loadConfig(testEnv(database, prefix, opts.env));
  const log = createLogger(config.logLevel);
  const services = await createApiServices(
    config,
    { databaseUrl: database.url, temporalAddress: opts.temporalAddress ?? harnessState().temporalAddress },
    log,
  );
  await services.validation.init();
  // PORT=0 (the default here) picks a free port; a test that needs its address up front (PUBLIC_URL) names one.
  const app = createApp(services);
  // Outermost, so they see the final status and body: the check of 2xx bodies against their declared schemas, and
  // their recording (RECORD_RESPONSES) to draft schemas.
  const mismatches: string[] = [];
  app.middleware.unshift(responseRecorder(), responseCheck(mismatches));
  const http = await listen(app, '127.0.0.1', config.port, services.readiness, log);
  let connection: NativeConnection | null = null;
  let running: Promise<void> | null = null;
  let stopGitWorker = () => undefined as void;
  const platform: TestPlatform = {
    config,
    services,
    database,
    http,
    url: http.url,
    worker: null,
    async startWorker() {
      connection ??= await NativeConnection.connect({ address: harnessState().temporalAddress });
      const { platform: worker, git: gitWorker } = await createProcessWorkers({
        connection,
        namespace: config.temporal.namespace,
        platformQueue: taskQueue(prefix, 'platform'),
        gitQueue: taskQueue(prefix, 'git'),
        deps: services,
        metrics: services.metrics,
        shutdownGraceMs: 1000,
        stickyTimeoutMs: config.workerStickyTimeoutMs,
        bundlePath: harnessState().bundlePath,
      });
      platform.worker = worker;
      stopGitWorker = () => gitWorker.shutdown();
      running = Promise.all([worker.run(), gitWorker.run()].map(untilStopped)).then(() => undefined);
    },
    async stopWorker() {
      if (platform.worker && running) {
        platform.worker.shutdown();
        stopGitWorker();
        await running;
      }
      platform.worker = null;
      running = null;
    },
    async close() {
      await platform.stopWorker();
      await connection?.close();
      await http.shutdown(1000);
      await closeServices(services);
      if (!opts.database) await database.drop();
      if (mismatches.length) {
        throw new Error(`responses that do not match schemas/route-responses.json:\n${mismatches.join('\n')}`);
      }
    },
  };
  if (opts.worker !== false) await platform.startWorker();
  return platform;
}
