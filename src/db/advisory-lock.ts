import type { Queryable } from './knex';

export type LockMode = 'exclusive' | 'shared';

/**
 * The statement that takes the transaction-level advisory lock named by its one parameter, a text key hashed to the
 * lock's 64-bit id, and holds it until the transaction ends: an exclusive holder waits for every other holder, shared
 * holders do not wait on one another. Outside a transaction the lock would end with the statement: callers pass one.
 */
export const LOCK_STATEMENT: Record<LockMode, string> = {
  exclusive: 'SELECT pg_advisory_xact_lock(hashtextextended(?, 0))',
  shared: 'SELECT pg_advisory_xact_lock_shared(hashtextextended(?, 0))',
};

/** Takes the advisory lock `key` for the rest of `trx` (waiting for its holders first). */
export async function takeAdvisoryLock(trx: Queryable, key: string, mode: LockMode = 'exclusive'): Promise<void> {
  await trx.raw(LOCK_STATEMENT[mode], [key]);
}
