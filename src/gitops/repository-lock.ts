import pg from 'pg';
import type { Queryable } from '../db/knex';

/** What a repository lock serializes: commits (the commit path) or pushes to the external remote. */
export type RepositoryLockPurpose = 'git' | 'git-push';

/**
 * The key of a repository's advisory lock: its identity (organization and project ids), never its path. Two processes
 * reaching one repository folder by different paths (a symlink, another mount point) must exclude each other, and a
 * path string differs between them (issue 43, H1).
 */
export function repositoryLockKey(purpose: RepositoryLockPurpose, organizationId: string, projectId: string): string {
  return `${purpose}:${organizationId}/${projectId}`;
}

/**
 * The statement that takes the repository's lock for the rest of its transaction, its key a quoted literal: a caller
 * may send it with the statements that must run once it holds the lock, in one round trip (recordedHeadLocked).
 */
export function lockStatement(purpose: RepositoryLockPurpose, organizationId: string, projectId: string): string {
  const key = pg.escapeLiteral(repositoryLockKey(purpose, organizationId, projectId));
  return `SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

/** Takes the repository's lock for the rest of the transaction `trx`. */
export async function lockRepository(
  trx: Queryable,
  purpose: RepositoryLockPurpose,
  organizationId: string,
  projectId: string,
): Promise<void> {
  await trx.raw(lockStatement(purpose, organizationId, projectId));
}
