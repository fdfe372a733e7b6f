import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Conflict, InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import type { Project } from '../projects/project-repository';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { taskQueue } from '../temporal/definitions';
import { gitCommitWorkflow } from '../../workflows/git-commit';
import { COMMIT_FAILURE } from './commit-failure';
import type { CommitOperation } from './commit-operation';
import type { CommitOutcome } from './commit-path';
import { IDEMPOTENCY_KEY_PATTERN } from './commit-writer';

export interface CommitInput {
  message: string;
  operation: CommitOperation;
  /** The client's Idempotency-Key; a fresh one when absent (every call is then a new write). */
  idempotencyKey?: string;
  releaseId?: string;
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
 * How services write to a repository: start the commit workflow by function reference (business id from the
 * idempotency key, so a retried request joins the same write) and wait for its SHA.
 */
export function createCommitClient(deps: { workflows: WorkflowStarter; taskQueuePrefix: string }): CommitClient {
  return async (caller, project, input) => {
    const key = input.idempotencyKey ?? randomUUID();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key))
      throw new InvalidInput('Idempotency-Key must be 1 to 128 of A-Z a-z 0-9 _ -');
    const workflowId = `git-commit-${project.id}-${key}`;
    const { principal } = caller;
    const handle = await deps.workflows.start(gitCommitWorkflow, {
      workflowId,
      args: [
        {
          taskQueue: taskQueue(deps.taskQueuePrefix, 'git'),
          request: {
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
          },
        },
      ],
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
