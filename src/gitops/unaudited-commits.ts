import { auditedCommitShas } from '../audit/audit-repository';
import type { Queryable } from '../db/knex';
import { branchHistory } from '../git/branch-history';
import type { RepositoryStore } from '../git/repository-store';

export interface UnauditedCommit {
  organizationId: string;
  projectId: string;
  sha: string;
}

/**
 * Commits on a hosted repository's branch that no audit entry names (`git_commit_sha`): every commit the platform
 * writes has one, so any other is a write that escaped the audit log (or a branch moved behind the platform's back).
 */
export async function findUnauditedCommits(db: Queryable, repositories: RepositoryStore): Promise<UnauditedCommit[]> {
  const found: UnauditedCommit[] = [];
  for (const { organizationId, projectId, path } of await repositories.list()) {
    const commits = await branchHistory(path);
    if (commits.length === 0) continue;
    const audited = await auditedCommitShas(db, projectId);
    for (const sha of commits) if (!audited.has(sha)) found.push({ organizationId, projectId, sha });
  }
  return found;
}
