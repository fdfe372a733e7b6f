import pg from 'pg';
import type { Knex } from 'knex';

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
  let next = 0;
  const statement = read.replace(/\?/g, () => pg.escapeLiteral(values[next++] ?? ''));
  if (next !== values.length) throw new Error(`readUnderLock: ${next} placeholders for ${values.length} values`);
  const results = (await trx.raw(
    `SELECT pg_advisory_xact_lock(hashtextextended(${pg.escapeLiteral(lockKey)}, 0)); ${statement}`,
  )) as { rows: Row[] }[];
  return results[1]?.rows[0];
}
