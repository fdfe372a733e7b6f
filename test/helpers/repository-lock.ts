import path from 'node:path';
import type { Db, Tx } from '../../src/db/knex';
import { lockRepository } from '../../src/gitops/repository-lock';

/** A backend waiting for a lock that `held`'s session can see in pg_locks (`where` narrows it), or null. */
export async function waitingBackend(held: Tx, where: string): Promise<number | null> {
  const { rows } = (await held.raw(`SELECT pid FROM pg_locks WHERE NOT granted AND ${where} LIMIT 1`)) as {
    rows: { pid: number }[];
  };
  return rows[0]?.pid ?? null;
}

/**
 * Holds a repository's commit lock (the commit path's advisory lock, src/gitops/repository-lock.ts) in a transaction
 * of its own until it is rolled back: every commit to that repository, in any process, waits meanwhile. `repo` is the
 * repository's path (`<root>/<organization id>/<project id>.git`); the lock is keyed by the ids it names.
 */
export async function holdRepositoryLock(db: Db, repo: string): Promise<Tx> {
  const held = await db.transaction();
  await lockRepository(held, 'git', path.basename(path.dirname(repo)), path.basename(repo, '.git'));
  return held;
}
