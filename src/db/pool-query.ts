import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Queryable } from './knex';

/** The pg client knex's pool hands out, as far as a direct query needs it. */
interface PooledConnection {
  __knexUid?: string;
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
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
  return sql.replace(/(\\*)(\?)/g, (_match: string, escapes: string) => (escapes.length % 2 ? '?' : `$${++n}`));
}

/** A statement knex compiled, ready for node-postgres: `$n` placeholders and the name it is prepared under. */
export interface PoolStatement {
  /** knex's SQL, with `?` placeholders: what `query` listeners see. */
  sql: string;
  /** The same with `$n` placeholders (positionalSql). */
  pgSql: string;
  /** Name of the server-side prepared statement: one per distinct text (preparedName). */
  name: string;
}

/** A prepared statement's name derived from its text, so two texts never share one name on a connection. */
export function preparedName(pgSql: string): string {
  return `compiled_${createHash('sha256').update(pgSql).digest('hex').slice(0, 32)}`;
}

/**
 * Runs one statement on a connection of knex's own pool with node-postgres directly (issue 34 item 5): knex's runner
 * costs more CPU per cached read than the statement itself. Same pool, same type parsing, and the same `query` event
 * (the standing cache and the benches listen to it). Each connection prepares the statement once (node-postgres keeps
 * the names it prepared per connection), so PostgreSQL neither parses nor plans it again: a request sends only Bind
 * and Execute. Inside a transaction it goes through knex, on the transaction's connection.
 */
export async function poolRows<Row>(db: Queryable, statement: PoolStatement, bindings: Knex.Value[]): Promise<Row[]> {
  const { sql } = statement;
  if (db.isTransaction) {
    return ((await db.raw(sql, bindings)) as { rows: Row[] }).rows;
  }
  const client = db.client as PoolClient;
  const connection = await client.acquireConnection();
  try {
    client.emit('query', { sql, bindings, __knexUid: connection.__knexUid });
    return (await connection.query({ name: statement.name, text: statement.pgSql, values: bindings })).rows as Row[];
  } finally {
    await client.releaseConnection(connection);
  }
}
