import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Conflict, InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import type { Project } from '../projects/project-repository';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { taskQueue } from '../temporal/definitions';
import { gitCommitWorkflowType } from './git-workflow-contract';
import type { Logger } from '../logging/logger';
import { followCommit } from './after-commit';
import { COMMIT_FAILURE, CommitRefused, withdrawnWrite } from './commit-failure';
import type { CommitGate, CommitOperation, CommitRequest } from './commit-operation';
import { runCommit, type CommitOutcome, type CommitPathDeps } from './commit-path';
import { IDEMPOTENCY_KEY_PATTERN } from '../git/commit-writer';

export interface CommitInput {
  message: string;
  operation: CommitOperation;
  /** The client's Idempotency-Key; a fresh one when absent (every call is then a new write). */
  idempotencyKey?: string;
  releaseId?: string;
  /**
   * Decided by the caller while the write is prepared (commit-operation.ts): the direct commit waits for it before it
   * lands; a write handed to the commit workflow waits for it first and carries its details.
   */
  gate?: CommitGate;
}

export type CommitClient = (caller: OrgCaller, project: Project, input: CommitInput) => Promise<CommitOutcome>;

const FAILURE_ERRORS: Record<string, (message: string) => Error> = {
  [COMMIT_FAILURE.projectGone]: () => new NotFound('project not found'),
  [COMMIT_FAILURE.archived]: (m) => new Conflict(m),
  [COMMIT_FAILURE.deliveryChanged]: (m) => new Conflict(m),
  [COMMIT_FAILURE.badTarget]: (m) => new InvalidInput(m),
  [COMMIT_FAILURE.frozen]: (m) => new Conflict(m),
  [COMMIT_FAILURE.targetGone]: (m) => new Conflict(m),
};

function refusalOf(err: unknown): Error | null {
  if (err instanceof CommitRefused) return FAILURE_ERRORS[err.type]?.(err.message) ?? null;
  let cause: unknown = err instanceof WorkflowFailedError ? err.cause : null;
  while (cause) {
    if (cause instanceof ApplicationFailure && cause.type && FAILURE_ERRORS[cause.type]) {
      return FAILURE_ERRORS[cause.type]?.(cause.message) ?? null;
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * How services write to a repository. With `direct` (GIT_DIRECT_COMMIT, the default where the process has the
 * repositories' volume), the process that took the request commits it through its own commit path: no Temporal task
 * queue between the request and its commit (issue 46). The commit path's unit is the durability rule: the commit, its
 * record (idempotency key) and its audit entries land together under the repository's lock, before the answer; a
 * request whose process dies before answering is retried by its client with the same Idempotency-Key and finds the
 * commit, or makes it. A refusal on the merits answers at once; any other failure (no volume here, a full disk, a lost
 * database connection) hands the same request to the commit workflow (business id from the idempotency key), which
 * waits out the outage on any worker, and the answer waits for its SHA.
 */
export function createCommitClient(deps: {
  workflows: WorkflowStarter;
  taskQueuePrefix: string;
  direct: { commitPath: CommitPathDeps; log: Pick<Logger, 'warn'> } | null;
}): CommitClient {
  const gitQueue = taskQueue(deps.taskQueuePrefix, 'git');

  async function committedHere(request: CommitRequest, gate?: CommitGate): Promise<CommitOutcome | null> {
    if (!deps.direct) return null;
    const target = { organizationId: request.organizationId, projectId: request.projectId };
    let outcome: CommitOutcome;
    try {
      outcome = await runCommit(deps.direct.commitPath, request, gate);
    } catch (err) {
      if (err instanceof CommitRefused) throw refusalOf(err) ?? err;
      deps.direct.log.warn('direct commit failed; handing the write to the commit workflow', {
        projectId: request.projectId,
        err: err instanceof Error ? err.message : String(err),
      });
      return null;
    }
    const { log } = deps.direct;
    followCommit(deps.workflows, gitQueue, target, outcome, (err) =>
      log.warn('could not start the push or maintenance after a direct commit', { projectId: request.projectId, err }),
    );
    return outcome;
  }

  return async (caller, project, input) => {
    const key = input.idempotencyKey ?? randomUUID();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key))
      throw new InvalidInput('Idempotency-Key must be 1 to 128 of A-Z a-z 0-9 _ -');
    const workflowId = `git-commit-${project.id}-${key}`;
    const { principal } = caller;
    const request: CommitRequest = {
      organizationId: project.organizationId,
      projectId: project.id,
      idempotencyKey: key,
      workflowId,
      message: input.message,
      actor: {
        userId: principal.userId,
        actorType: principal.actorType,
        actor: principal.actor,
        email: principal.email,
        requestId: caller.requestId,
      },
      releaseId: input.releaseId,
      operation: input.operation,
    };
    const here = await committedHere(request, input.gate);
    if (here) return here;
    if (input.gate) {
      const details = await input.gate;
      if (details === null) throw withdrawnWrite();
      request.auditDetails = details;
    }
    const handle = await deps.workflows.start(gitCommitWorkflowType, {
      workflowId,
      args: [{ taskQueue: gitQueue, request }],
      labels: { organizationId: project.organizationId, projectId: project.id },
      summary: `commit: ${input.message.slice(0, 120)}`,
    });
    try {
      return await handle.result();
    } catch (err) {
      throw refusalOf(err) ?? err;
    }
  };
}
