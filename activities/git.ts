import { ApplicationFailure, Context } from '@temporalio/activity';
import { CommitRefused, runCommit, type CommitOutcome, type CommitRequest } from '../src/gitops/commit-path';
import { maintainRepositories, type MaintenanceTarget } from '../src/gitops/repository-maintenance';
import { pushToRemote, type PushOutcome, type PushRequest } from '../src/gitops/remote-push';
import type { Services } from '../src/runtime/services';

/** The `git` task queue's activities, as workflows/git-commit.ts calls them (type-only: it imports no activity code). */
export type GitActivities = {
  commitToRepository(request: CommitRequest): Promise<CommitOutcome>;
  pushToRemote(request: PushRequest): Promise<PushOutcome>;
  maintainRepositories(target: MaintenanceTarget | null): Promise<number>;
};

/** How often a running commit tells Temporal it is alive (the workflow's heartbeat timeout is a few of these). */
const HEARTBEAT_MS = 1000;

/** The activities of the `git` task queue: the one commit path of hosted repositories (src/gitops/commit-path.ts). */
export function createGitActivities(
  services: Pick<Services, 'db' | 'repositories' | 'config' | 'secrets' | 'commitPath'>,
): GitActivities {
  const deps = services.commitPath;
  return {
    async commitToRepository(req: CommitRequest): Promise<CommitOutcome> {
      // Heartbeats let Temporal notice a worker that died mid-commit within seconds and retry elsewhere; the retry is
      // safe because the commit path is idempotent by the request's key.
      // As a local activity (commitOnGitQueue's `local`) it has no heartbeat: its workflow task's timeout stands in.
      const context = Context.current();
      const beat = context.info.isLocal ? undefined : setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      try {
        return await runCommit(deps, req);
      } catch (err) {
        // A refusal is an answer, not a fault: retrying cannot change it.
        if (err instanceof CommitRefused) throw ApplicationFailure.nonRetryable(err.message, err.type);
        throw err;
      } finally {
        clearInterval(beat);
      }
    },

    /** `git gc --auto` on one repository or all of them (repositoryMaintenanceWorkflow), never in a request. */
    async maintainRepositories(target: MaintenanceTarget | null): Promise<number> {
      const context = Context.current();
      return maintainRepositories(services.repositories, target, () => context.heartbeat());
    },

    /** A failed push is recorded, then thrown, so Temporal retries it (gitPushWorkflow). */
    async pushToRemote(req: PushRequest): Promise<PushOutcome> {
      return pushToRemote(
        {
          db: services.db,
          repositories: services.repositories,
          secrets: services.secrets,
          outbound: services.config.notifications.outbound,
          allowHttp: services.config.gitops.remoteAllowHttp,
        },
        req,
      );
    },
  };
}
