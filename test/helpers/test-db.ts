import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from '../../src/db/knex';
import { harnessState } from './harness-state';

export interface TestDatabase {
  url: string;
  name: string;
  db: Db;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: harnessState().adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** An isolated database for one test file, copied from the migrated template (fast: no migrations per file). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const state = harnessState();
  const name = `${state.templateDb.replace('platform_tpl_', 'platform_t_')}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${state.templateDb}`));
  const url = withDatabase(state.adminUrl, name);
  const db = createDb(url, 5);
  return {
    url,
    name,
    db,
    async drop() {
      await db.destroy();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
