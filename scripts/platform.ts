import { NativeConnection, type Worker } from '@temporalio/worker';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { createApp } from '../api/app';
import { listen, type RunningServer } from '../api/server';
import { createProcessWorkers } from '../workers/create-worker';
import { startRowReconciler } from '../src/temporal/row-reconciler';
import { DOMAIN_MODULES } from '../src/runtime/modules';
import { ensureMaintenanceSchedule } from '../src/gitops/maintenance-schedule';
import { startAgentGrpcServer, type RunningAgentServer } from '../src/clusters/agent-grpc-server';
import type { Config } from '../src/config';
import { migrateLatest } from '../src/db/migrate';
import { startMetricsServer } from '../src/http/metrics-server';
import { connectionOptions } from '../src/temporal/connection';
import { taskQueue } from '../src/temporal/definitions';
import { createLogger, errorFields, type Logger } from '../src/logging/logger';
import { createApiServices, type ApiServices } from '../src/runtime/api-services';
import { closeServices, createServices, type Services, type Endpoints } from '../src/runtime/services';
import { selfCheckAtStart } from '../src/runtime/self-check-at-start';
import type { PlatformRoles } from '../src/runtime/platform-roles';

export interface RunningPlatform {
  services: Services;
  /** The HTTP API's own services, when this process serves the API. */
  api: ApiServices | null;
  http: RunningServer | null;
  /** The agent protocol (gRPC), served beside the HTTP API. */
  agents: RunningAgentServer | null;
  worker: Worker | null;
  stop(): Promise<void>;
}

/** Starts the API and/or the worker in this process against already-resolved PostgreSQL and Temporal endpoints. */
export async function runPlatform(config: Config, endpoints: Endpoints, roles: PlatformRoles, logger?: Logger) {
  const log = logger ?? createLogger(config.logLevel);
  installTemporalRuntime(log);
  // A worker-only process builds no JWT keys, request schemas or identity flows.
  const api = roles.api ? await createApiServices(config, endpoints, log) : null;
  const services = api ?? (await createServices(config, endpoints, log));
  if (roles.migrate) {
    const applied = await migrateLatest(services.db);
    if (applied.length > 0) log.info('migrations applied', { count: applied.length, latest: applied.at(-1) });
  }
  let worker: Worker | null = null;
  let workerRun: Promise<void> | null = null;
  let nativeConnection: NativeConnection | null = null;
  let stopWorkers = () => undefined as void;
  if (roles.worker) {
    // Idempotent; against an external cluster it needs operator rights, so a refusal is a warning, not a stop.
    await ensureSearchAttributes(services.temporal.connection, config.temporal.namespace).then(
      (added) => added.length > 0 && log.info('search attributes registered', { added }),
      (err: unknown) => log.warn('search attributes not registered', errorFields(err)),
    );
  }
  await selfCheckAtStart(services, roles, log);
  if (roles.worker) {
    nativeConnection = await NativeConnection.connect(connectionOptions(config.temporal, endpoints.temporalAddress));
    const pair = await createProcessWorkers({
      connection: nativeConnection,
      namespace: config.temporal.namespace,
      // The `git` queue's worker (the one commit path) runs beside the platform's; both stop together.
      platformQueue: taskQueue(config.temporal.taskQueuePrefix, 'platform'),
      gitQueue: taskQueue(config.temporal.taskQueuePrefix, 'git'),
      deps: services,
      metrics: services.metrics,
      shutdownGraceMs: config.workerShutdownGraceMs,
      stickyTimeoutMs: config.workerStickyTimeoutMs,
      bundlePath: config.temporal.workflowBundlePath,
    });
    worker = pair.platform;
    const workers = [pair.platform, pair.git];
    await ensureMaintenanceSchedule(services.temporal, {
      prefix: config.temporal.taskQueuePrefix,
      workflowQueue: taskQueue(config.temporal.taskQueuePrefix, 'platform'),
      gitQueue: taskQueue(config.temporal.taskQueuePrefix, 'git'),
      intervalMs: config.gitops.maintenanceIntervalMs,
    }).catch((err: unknown) => log.warn('git maintenance schedule not created', errorFields(err)));
    const reconcilers = DOMAIN_MODULES.flatMap((module) => module.reconcilers?.(services) ?? []).map((r) =>
      startRowReconciler(r.name, r.run, r.intervalMs, log),
    );
    workerRun = Promise.all(workers.map((w) => w.run())).then(
      () => undefined,
      (err: unknown) => log.error('worker stopped with an error', errorFields(err)),
    );
    stopWorkers = () => {
      reconcilers.forEach((r) => r.stop());
      workers.forEach((w) => w.getState() === 'RUNNING' && w.shutdown());
    };
  }
  const http = api ? await listen(createApp(api), config.host, config.port, services.readiness, log) : null;
  const agents = api ? await startAgentGrpcServer(api.clusters.agentHub, config.clusters, log, api.metrics) : null;
  if (agents) log.debug('agent protocol listening', { host: config.clusters.grpcHost, port: agents.port });
  const metricsServer =
    roles.worker && !roles.api && config.workerMetricsPort > 0
      ? await startMetricsServer(services.metrics.registry, config.host, config.workerMetricsPort, services.readiness)
      : null;
  const running: RunningPlatform = {
    services,
    api,
    http,
    agents,
    worker,
    async stop() {
      // The HTTP drain first (readiness 503 at once, the listener open for the drain delay), the agents' beside it.
      await Promise.all([
        http?.shutdown(config.shutdownGraceMs, config.shutdownDrainDelayMs),
        agents?.stop(config.shutdownGraceMs),
      ]);
      await metricsServer?.close();
      if (workerRun) {
        stopWorkers();
        await workerRun;
      }
      await nativeConnection?.close();
      await closeServices(services);
    },
  };
  return running;
}
