import pg from 'pg';
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
  const literals = [lockKey, ...values];
  let next = 0;
  const statements = `${LOCK_STATEMENT.exclusive}; ${read}`.replace(/\?/g, () =>
    pg.escapeLiteral(literals[next++] ?? ''),
  );
  if (next !== literals.length) throw new Error(`readUnderLock: ${next - 1} placeholders for ${values.length} values`);
  const results = (await trx.raw(statements)) as { rows: Row[] }[];
  return results[1]?.rows[0];
}
