import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config';
import { startEmbeddedPostgres } from '../embedded/postgres';
import { clearProcessRecord, processRecordFile, recordProcess, stopOrphan } from '../embedded/process-record';
import { locateTemporalCli } from '../embedded/temporal-cli';
import { startDownloadedDevServer } from '../embedded/temporal-download';
import { startDevServer, type DevServer } from '../embedded/temporal-server';
import type { Logger } from '../logging/logger';
import { repoRoot } from '../paths';
import type { Endpoints } from './services';

export interface ResolvedEndpoints extends Endpoints {
  temporalUiUrl: string | null;
  /** Stops whatever this process started (embedded PostgreSQL, dev server), in reverse order. */
  stop(): Promise<void>;
}

export function embeddedDatabaseUrl(config: Config): string {
  return `postgres://postgres:postgres@127.0.0.1:${config.embeddedPostgresPort}/platform`;
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The embedded database a tool looked for is neither running nor on disk, and the tool may not create one. */
export class NoEmbeddedDatabase extends Error {}

/**
 * PostgreSQL only: external when DATABASE_URL is set, else the embedded one (reused if already running). With
 * `mayCreate: false` (the operator CLI without --init) a DATA_DIR holding no database is refused, naming where it
 * looked, instead of silently starting a fresh empty one beside the running platform's.
 */
export async function resolveDatabase(
  config: Config,
  log: Logger,
  options: { mayCreate?: boolean } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  const url = embeddedDatabaseUrl(config);
  const record = processRecordFile(config.dataDir, 'postgres');
  await stopOrphan(record, 'postgres', 'SIGINT', log);
  // Still reachable: started by a run that is alive (the platform, while the operator CLI runs), which stops it.
  if (await reachable(url)) return { url, stop: async () => undefined };
  const databaseDir = path.resolve(config.dataDir, 'postgres');
  if (options.mayCreate === false && !fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    throw new NoEmbeddedDatabase(
      `no platform database: nothing answers on 127.0.0.1:${config.embeddedPostgresPort} (EMBEDDED_PG_PORT) and ` +
        `DATA_DIR ${path.resolve(config.dataDir)} holds none. Run from the platform's folder with its DATA_DIR and ` +
        'EMBEDDED_PG_PORT, set DATABASE_URL, or pass --init to create a new embedded database there.',
    );
  }
  log.debug('starting embedded PostgreSQL', { dataDir: path.join(config.dataDir, 'postgres') });
  // Stopped by us after the platform, not by a terminal's Ctrl-C before it (src/embedded/postgres.ts).
  const started = await startEmbeddedPostgres(
    config.dataDir,
    config.embeddedPostgresPort,
    log,
    {},
    { ownProcessGroup: true },
  );
  recordProcess(record, started.pid);
  return {
    url: started.url,
    stop: async () => {
      await started.stop();
      clearProcessRecord(record);
    },
  };
}

/** The dev server from the CLI when one can be found or installed, else downloaded by the SDK. */
async function startTemporal(config: Config, log: Logger): Promise<Omit<DevServer, 'process'>> {
  const dbFile = path.join(config.dataDir, 'temporal', 'temporal.db');
  let cliPath: string;
  try {
    cliPath = locateTemporalCli(repoRoot(), config.temporal.cliPath, config.temporal.cliSearchPath, (msg) =>
      log.info(msg),
    );
  } catch (err) {
    if (config.temporal.cliPath) throw err;
    log.warn('no temporal CLI; downloading the dev server through the SDK', { reason: String(err) });
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    return startDownloadedDevServer({
      root: repoRoot(),
      port: config.temporal.embeddedPort,
      uiPort: config.temporal.uiPort,
      namespace: config.temporal.namespace,
      dbFile,
    });
  }
  const record = processRecordFile(config.dataDir, 'temporal');
  await stopOrphan(record, 'temporal', 'SIGTERM', log);
  log.debug('starting Temporal dev server', { cliPath });
  const server = await startDevServer({
    cliPath,
    port: config.temporal.embeddedPort,
    uiPort: config.temporal.uiPort,
    httpPort: config.temporal.httpPort,
    metricsPort: config.temporal.metricsPort,
    namespace: config.temporal.namespace,
    dbFile,
    logFile: path.join(config.dataDir, 'temporal', 'server.log'),
    ownProcessGroup: true,
  });
  if (server.process.pid !== undefined) recordProcess(record, server.process.pid);
  return {
    ...server,
    stop: async () => {
      await server.stop();
      clearProcessRecord(record);
    },
  };
}

/** External services when configured; otherwise embedded PostgreSQL and the Temporal dev server under DATA_DIR. */
export async function resolveEndpoints(config: Config, log: Logger): Promise<ResolvedEndpoints> {
  if (config.temporal.address) {
    const database = await resolveDatabase(config, log);
    return {
      databaseUrl: database.url,
      temporalAddress: config.temporal.address,
      temporalUiUrl: null,
      stop: database.stop,
    };
  }
  // Side by side: neither needs the other, and each takes seconds to come up (half of a restart's time).
  const [database, server] = await Promise.allSettled([resolveDatabase(config, log), startTemporal(config, log)]);
  if (database.status === 'rejected' || server.status === 'rejected') {
    if (database.status === 'fulfilled') await database.value.stop();
    if (server.status === 'fulfilled') await server.value.stop();
    throw database.status === 'rejected' ? database.reason : (server as PromiseRejectedResult).reason;
  }
  return {
    databaseUrl: database.value.url,
    temporalAddress: server.value.address,
    temporalUiUrl: server.value.uiUrl,
    // Nothing of ours uses either any more: both stop side by side (the dev server takes about a second).
    stop: async () => {
      await Promise.all([server.value.stop(), database.value.stop()]);
    },
  };
}
