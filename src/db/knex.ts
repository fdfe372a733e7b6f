import knexFactory, { Knex } from 'knex';
import type { Logger } from '../logging/logger';

export type Db = Knex;
export type Tx = Knex.Transaction;
/** A query runner that is either the pool or an open transaction: services accept this so callers can compose. */
export type Queryable = Knex | Knex.Transaction;

export function createDb(connectionString: string, poolMax: number, log?: Logger): Db {
  return knexFactory({
    // knex logs to the console by default; route it into structured logs.
    log: log && {
      warn: (message: unknown) => log.warn('knex', { message: String(message) }),
      error: (message: unknown) => log.error('knex', { message: String(message) }),
      deprecate: (message: unknown) => log.warn('knex deprecation', { message: String(message) }),
      debug: (message: unknown) => log.debug('knex', { message: String(message) }),
    },
    client: 'pg',
    connection: { connectionString, application_name: 'delivery-platform' },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
  });
}

/** PostgreSQL unique_violation; repositories turn it into Conflict. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
