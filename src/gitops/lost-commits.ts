import { auditedCommitShas } from '../audit/audit-repository';
import type { Queryable } from '../db/knex';
import { branchHistory } from '../git/branch-history';
import { projectsWithCommits, recordedCommitShas } from './commit-record-repository';
import type { RepositoryStore } from '../git/repository-store';

export interface LostCommit {
  organizationId: string;
  projectId: string;
  sha: string;
  /** Why it is not on the branch: the branch does not reach it, or the volume lacks the repository. */
  reason: 'not on the branch' | 'repository missing';
}

/**
 * Recorded commits (`git_commits`, and the SHAs audit entries name) that the project's branch does not reach: writes
 * the platform answered `committed` and audited, then lost (issue 43, H1: a branch moved back by a writer that did not
 * exclude the one that moved it). The counterpart of `findUnauditedCommits`.
 */
export async function findLostCommits(db: Queryable, repositories: RepositoryStore): Promise<LostCommit[]> {
  const projects = new Map<string, string>();
  for (const { organizationId, projectId } of await repositories.list()) projects.set(projectId, organizationId);
  for (const { organizationId, projectId } of await projectsWithCommits(db)) projects.set(projectId, organizationId);
  const lost: LostCommit[] = [];
  for (const [projectId, organizationId] of projects) {
    const recorded = new Set([
      ...(await recordedCommitShas(db, projectId)),
      ...(await auditedCommitShas(db, projectId)),
    ]);
    if (recorded.size === 0) continue;
    const present = await repositories.exists(organizationId, projectId);
    const onBranch = new Set(present ? await branchHistory(repositories.pathOf(organizationId, projectId)) : []);
    const reason = present ? 'not on the branch' : 'repository missing';
    for (const sha of recorded) if (!onBranch.has(sha)) lost.push({ organizationId, projectId, sha, reason });
  }
  return lost;
}
