import knexFactory, { Knex } from 'knex';

export type Db = Knex;
export type Tx = Knex.Transaction;
/** A query runner that is either the pool or an open transaction: services accept this so callers can compose. */
export type Queryable = Knex | Knex.Transaction;

export function createDb(connectionString: string, poolMax: number): Db {
  return knexFactory({
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
