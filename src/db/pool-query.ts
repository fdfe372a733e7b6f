import type { Queryable } from './knex';

/** The pg client knex's pool hands out, as far as a direct query needs it. */
interface PooledConnection {
  __knexUid?: string;
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The part of knex's client a direct query uses: its pool, and the `query` event its listeners rely on. */
interface PoolClient {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<void>;
  emit(event: 'query', query: { sql: string; bindings: unknown[]; __knexUid?: string }): boolean;
}

/** knex's `?` placeholders as node-postgres's `$n`, the way knex's pg dialect turns them (an escaped `\?` stays). */
export function positionalSql(sql: string): string {
  let n = 0;
  return sql.replace(/(\\*)(\?)/g, (match: string, escapes: string) => (escapes.length % 2 ? '?' : `$${++n}`));
}

/**
 * Runs one statement on a connection of knex's own pool with node-postgres directly (issue 34 item 5): knex's runner
 * costs more CPU per cached read than the statement itself. Same pool, same type parsing, and the same `query` event
 * (the standing cache and the benches listen to it). Inside a transaction it goes through knex, on the transaction's
 * connection. `pgSql` is `sql` with `$n` placeholders (positionalSql), computed once by the caller.
 */
export async function poolRows<Row>(db: Queryable, sql: string, pgSql: string, bindings: unknown[]): Promise<Row[]> {
  if (db.isTransaction) {
    return ((await db.raw(sql, bindings as never)) as { rows: Row[] }).rows;
  }
  const client = db.client as PoolClient;
  const connection = await client.acquireConnection();
  try {
    client.emit('query', { sql, bindings, __knexUid: connection.__knexUid });
    return (await connection.query(pgSql, bindings)).rows as Row[];
  } finally {
    await client.releaseConnection(connection);
  }
}
