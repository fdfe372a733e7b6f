import type { Db, Tx } from '../../src/db/knex';

/** A backend waiting for a lock that `held`'s session can see in pg_locks (`where` narrows it), or null. */
export async function waitingBackend(held: Tx, where: string): Promise<number | null> {
  const { rows } = (await held.raw(`SELECT pid FROM pg_locks WHERE NOT granted AND ${where} LIMIT 1`)) as {
    rows: { pid: number }[];
  };
  return rows[0]?.pid ?? null;
}

/**
 * Holds a repository's commit lock (the commit path's advisory lock, src/gitops/commit-path.ts) in a transaction of
 * its own until it is rolled back: every commit to that repository, in any process, waits meanwhile.
 */
export async function holdRepositoryLock(db: Db, repo: string): Promise<Tx> {
  const held = await db.transaction();
  await held.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`git:${repo}`]);
  return held;
}
