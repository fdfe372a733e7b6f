import type { Knex } from 'knex';
import { LOCK_STATEMENT } from './advisory-lock';

/**
 * Takes the transaction-level advisory lock `lockKey` (held until `trx` ends), then runs `read` and answers its first
 * row: one round trip, two statements in one simple-protocol query string. Under READ COMMITTED each statement of a
 * query string takes its own snapshot, so the read runs once the lock is granted and sees what the holder it waited
 * for committed; one statement doing both would read from the snapshot it took before its wait. With no bind
 * parameters, each `?` of `read` is replaced by its value as a quoted literal (so `read` holds no other `?`).
 */
export async function readUnderLock<Row>(
  trx: Knex.Transaction,
  lockKey: string,
  read: string,
  values: string[],
): Promise<Row | undefined> {
  const results = (await trx.raw(`${lockStatementFor(lockKey)}; ${withLiterals(read, values)}`)) as { rows: Row[] }[];
  return results[1]?.rows[0];
}

/** `sql` with each `?` replaced by its value as a quoted literal (NULL for null): a statement for a query string. */
export function withLiterals(sql: string, values: readonly (string | null)[]): string {
  let next = 0;
  const statement = sql.replace(/\?/g, () => sqlLiteral(values[next++] ?? null));
  if (next !== values.length) throw new Error(`${next} placeholders for ${values.length} values`);
  return statement;
}

/** The exclusive transaction-level lock statement for `key`, its key as a literal (for a query string of several). */
export function lockStatementFor(key: string): string {
  return LOCK_STATEMENT.exclusive.replace('?', () => sqlLiteral(key));
}

/**
 * A value as a quoted SQL literal (NULL for null), for a query string of several statements, which takes no bind
 * parameters: an escape string with its backslashes doubled, its quotes doubled and each `?` written `\x3F`, since
 * knex turns every `?` of a raw query into a `$n` placeholder (and drops the backslashes before an escaped one), even
 * inside a literal and with no bindings. A NUL character is refused: it would end the query string early.
 */
export function sqlLiteral(value: string | null): string {
  if (value === null) return 'NULL';
  if (value.includes('\0')) throw new Error('a NUL character cannot be sent in a query string');
  return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''").replace(/\?/g, '\\x3F')}'`;
}
