import { ApplicationFailure } from '@temporalio/activity';
import { CommitRefused, runCommit, type CommitOutcome, type CommitRequest } from '../src/gitops/commit-path';
import type { Services } from '../src/runtime/services';
import type { GitActivities } from '../workflows/git-commit';

/** The activities of the `git` task queue: the one commit path of hosted repositories (src/gitops/commit-path.ts). */
export function createGitActivities(
  services: Pick<Services, 'db' | 'audit' | 'repositories' | 'config'>,
): GitActivities {
  const deps = {
    db: services.db,
    audit: services.audit,
    repositories: services.repositories,
    publicUrl: services.config.publicUrl,
  };
  return {
    async commitToRepository(req: CommitRequest): Promise<CommitOutcome> {
      try {
        return await runCommit(deps, req);
      } catch (err) {
        // A refusal is an answer, not a fault: retrying cannot change it.
        if (err instanceof CommitRefused) throw ApplicationFailure.nonRetryable(err.message, err.type);
        throw err;
      }
    },
  };
}
