import { runCommit, type CommitPathDeps } from '../gitops/commit-path';
import type { Logger } from '../logging/logger';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { followCommit } from '../gitops/after-commit';
import type { QueuedImageUpdate } from './image-update-batch';
import { imageWebhookCommit } from './image-webhook-operation';

type Target = { organizationId: string; projectId: string };
interface Waiting {
  entry: QueuedImageUpdate;
  done: (committed: boolean) => void;
}

/** The most requests one direct commit takes (a bound on its transaction); the rest go into the next. */
const BATCH_LIMIT = 100;
/**
 * The most projects this process commits at once: each commit holds a database connection while it waits for its
 * repository's lock, and the API's pool serves every request (as GIT_WORKER_CONCURRENCY bounds the workers). A request
 * for one more project goes to its workflow.
 */
const PROJECTS_AT_ONCE = 4;

export type DirectImageCommits = ReturnType<typeof createDirectImageCommits>;

/**
 * Image updates committed by the API process that verified them (issue 35: no Temporal round trip between a
 * request and its commit). A request is staged in PostgreSQL first (the outbox), so it is durable before this runs:
 * the requests of a project that arrive while its commit runs go into one next commit (group commit), through this
 * process's commit path (src/gitops/commit-path.ts: the repository's advisory lock, one transaction with the audit
 * entries), planned and finished inside that unit (image-webhook-operation.ts), so two API processes, or an API and
 * the project's workflow, never commit an older signed tag over a newer one. `commit` resolves false when the commit
 * did not land; the caller then hands the request to the project's workflow, and a process that died mid-commit
 * leaves its staged requests to the worker's reconciler, which does the same.
 */
export function createDirectImageCommits(deps: {
  commitPath: CommitPathDeps;
  workflows: Pick<WorkflowStarter, 'start'>;
  gitTaskQueue: string;
  log: Pick<Logger, 'warn'>;
}) {
  const queues = new Map<string, { target: Target; waiting: Waiting[] }>();

  async function drain(projectId: string): Promise<void> {
    for (let queue = queues.get(projectId); queue?.waiting.length; queue = queues.get(projectId)) {
      const batch = queue.waiting.splice(0, BATCH_LIMIT);
      const entries = batch.map((w) => w.entry);
      let committed = true;
      try {
        const request = imageWebhookCommit(queue.target, entries, `direct-${entries[0]!.webhookId}`);
        const outcome = await runCommit(deps.commitPath, request);
        // The commit landed and its requests are finished.
        followCommit(deps.workflows, deps.gitTaskQueue, queue.target, outcome, (err) =>
          deps.log.warn('could not start the push or maintenance after a direct image-update commit', {
            projectId,
            err,
          }),
        );
      } catch (err) {
        deps.log.warn('direct image-update commit failed; handing the requests to the project workflow', {
          projectId,
          requests: entries.length,
          err: err instanceof Error ? err.message : String(err),
        });
        committed = false;
      }
      for (const w of batch) w.done(committed);
    }
    queues.delete(projectId);
  }

  return {
    /** Commits a staged request with the project's others waiting in this process; false when it did not land. */
    commit(target: Target, entry: QueuedImageUpdate): Promise<boolean> {
      return new Promise((done) => {
        const queue = queues.get(target.projectId);
        if (queue) return void queue.waiting.push({ entry, done });
        if (queues.size >= PROJECTS_AT_ONCE) return done(false);
        queues.set(target.projectId, { target, waiting: [{ entry, done }] });
        void drain(target.projectId);
      });
    },
  };
}
