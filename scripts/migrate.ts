import { configFromProcess, exitOnConfigError } from '../src/config';
import { createDb } from '../src/db/knex';
import { migrateLatest, migrateRollback } from '../src/db/migrate';
import { createLogger } from '../src/logging/logger';
import { resolveDatabase } from '../src/runtime/embedded';

/** `npm run migrate [-- --rollback]`: against DATABASE_URL, or the embedded PostgreSQL under DATA_DIR. */
async function main(): Promise<void> {
  let config;
  try {
    config = configFromProcess();
  } catch (err) {
    exitOnConfigError(err);
  }
  const log = createLogger(config.logLevel, { process: 'migrate' });
  const database = await resolveDatabase(config, log);
  const db = createDb(database.url, 2);
  try {
    const done = process.argv.includes('--rollback') ? await migrateRollback(db) : await migrateLatest(db);
    process.stdout.write(done.length ? `${done.join('\n')}\n` : 'already up to date\n');
  } finally {
    await db.destroy();
    await database.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
