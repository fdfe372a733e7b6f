import type { Queryable } from '../db/knex';
import { takeAdvisoryLock } from '../db/advisory-lock';

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

/** Takes the repository's lock for the rest of the transaction `trx`. */
export async function lockRepository(
  trx: Queryable,
  purpose: RepositoryLockPurpose,
  organizationId: string,
  projectId: string,
): Promise<void> {
  await takeAdvisoryLock(trx, repositoryLockKey(purpose, organizationId, projectId));
}
