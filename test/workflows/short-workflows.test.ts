import { scaled } from '../helpers/time-scale';
import { randomUUID } from 'node:crypto';
import type { createActivities } from '../../activities';
import type { GitActivities } from '../../activities/git';
import { gitCommitWorkflow, gitPushWorkflow, repositoryMaintenanceWorkflow } from '../../workflows/git-commit';
import { pingWorkflow, proofWorkflow } from '../../workflows/proof';
import { notificationDispatchWorkflow } from '../../workflows/notification-dispatch';
import { messageOf } from '../../src/notifications/message';
import type { CommitRequest } from '../../src/gitops/commit-path';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { historiesOf } from '../helpers/workflow-histories';
import { SEARCH_ATTRIBUTES } from '../../src/temporal/definitions';

/**
 * The short workflows on the time-skipping server with stub activities typed from the real ones: the proof and ping
 * round trips, a commit that starts its push workflow, a push that keeps failing, and two turns of an organization's
 * notification dispatcher. Each path's history is kept for the replay test (UPDATE_WORKFLOW_HISTORIES=1).
 */
type Activities = Pick<
  ReturnType<typeof createActivities>,
  'proofStep' | 'recordProof' | 'planDispatch' | 'readDispatchCursor' | 'deliverNotification'
> &
  GitActivities;

const calls: string[] = [];
let pushFails = false;
const SHA = 'e'.repeat(40);

const stubs: Activities = {
  proofStep: async ({ step }) => void calls.push(`step ${step}`),
  recordProof: async () => 'audit-1',
  readDispatchCursor: async () => 7,
  planDispatch: async ({ afterSeq }) => {
    calls.push(`plan after ${afterSeq}`);
    if (afterSeq > 7) return { lastSeq: afterSeq, events: 0, deliveries: [] };
    const message = messageOf({
      event: 'release.deploy',
      eventId: 'event-8',
      organizationId: 'org-1',
      projectId: null,
      occurredAt: new Date(0).toISOString(),
      data: {},
    });
    return {
      lastSeq: 8,
      events: 1,
      deliveries: [{ channelId: 'chan-1', recipient: 'ops', eventId: 'event-8', message, timeoutMs: 60_000 }],
    };
  },
  deliverNotification: async (d) => {
    calls.push(`deliver ${d.eventId} to ${d.channelId}`);
    return 'sent';
  },
  maintainRepositories: async (target) => {
    calls.push(`maintain ${target ? target.projectId : 'all'}`);
    return target ? 1 : 0;
  },
  commitToRepository: async (request) => {
    calls.push(`commit ${request.idempotencyKey}`);
    return { sha: SHA, created: true, auditIds: [], remote: true };
  },
  pushToRemote: async (request) => {
    calls.push(`push ${request.sha.slice(0, 7)}`);
    if (pushFails) throw new Error('remote refused');
    return { status: 'pushed', error: null };
  },
};

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs);
const { keep } = historiesOf('short');

beforeEach(() => {
  calls.length = 0;
});

it('dispatches an organization outbox in order and continues as new after its turns', async () => {
  const dispatcher = await ts.env.client.workflow.start(notificationDispatchWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `notification-dispatch-${randomUUID()}`,
    args: [{ organizationId: 'org-1', pollIntervalMs: 60_000, batchSize: 10, turnsPerRun: 2 }],
  });
  const first = ts.env.client.workflow.getHandle(dispatcher.workflowId, dispatcher.firstExecutionRunId);
  for (const deadline = Date.now() + scaled(30_000); (await first.describe()).status.name === 'RUNNING';) {
    if (Date.now() > deadline) throw new Error('the dispatcher never continued as new');
    await ts.env.sleep(60_000);
  }
  expect(calls.slice(0, 3)).toEqual(['plan after 7', 'deliver event-8 to chan-1', 'plan after 8']);
  expect((await first.describe()).status.name).toBe('CONTINUED_AS_NEW');
  await keep('dispatch-two-turns', first);
  await dispatcher.terminate('test over');
});

it('proves the path with durable steps and answers a ping', async () => {
  const runId = randomUUID();
  const proof = await ts.env.client.workflow.start(proofWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `proof-${runId}`,
    args: [{ runId, organizationId: null, steps: 3, stepDelayMs: 60_000 }],
  });
  expect(await proof.result()).toEqual({ runId, stepsCompleted: 3, auditEntryId: 'audit-1' });
  expect(calls).toEqual(['step 1', 'step 2', 'step 3']);
  await keep('proof', proof);
  const ping = await ts.env.client.workflow.start(pingWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `ping-${runId}`,
  });
  expect(await ping.result()).toBe(`ping-${runId}`);
  await keep('ping', ping);
});

it('commits on the git queue and starts the push of a project with a remote; a failing push ends failed', async () => {
  const request: CommitRequest = {
    organizationId: 'org-1',
    projectId: 'project-1',
    idempotencyKey: `manual-${randomUUID()}`,
    workflowId: 'git-commit-test',
    message: 'Update web',
    actor: { userId: null, actorType: 'system', actor: 'test', requestId: null, email: null },
    operation: { type: 'release', tenant: 'acme', environment: 'prod', changes: [], digest: 'd'.repeat(64) },
  } as CommitRequest;
  const commit = await ts.env.client.workflow.start(gitCommitWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `git-commit-${randomUUID()}`,
    args: [{ request, taskQueue: ts.taskQueue }],
    // As the API starts it (src/temporal/start-workflow.ts): the push it starts carries the same labels.
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.organizationId, value: 'org-1' },
      { key: SEARCH_ATTRIBUTES.organizationSlug, value: 'acme-corp' },
      { key: SEARCH_ATTRIBUTES.projectId, value: 'project-1' },
      { key: SEARCH_ATTRIBUTES.projectSlug, value: 'shop' },
    ],
  });
  expect((await commit.result()).sha).toBe(SHA);
  const push = ts.env.client.workflow.getHandle(`git-push-project-1-${SHA}`);
  expect(await push.result()).toEqual({ status: 'pushed', error: null });
  const described = await push.describe();
  expect(await described.staticSummary()).toBe(`acme-corp/shop: push ${SHA.slice(0, 12)} to the external remote`);
  expect(described.typedSearchAttributes.get(SEARCH_ATTRIBUTES.organizationId)).toBe('org-1');
  expect(described.typedSearchAttributes.get(SEARCH_ATTRIBUTES.projectSlug)).toBe('shop');
  expect(calls).toEqual([`commit ${request.idempotencyKey}`, `push ${SHA.slice(0, 7)}`]);
  await keep('git-commit-with-push', commit);
  await keep('git-push', push);

  pushFails = true;
  const failing = await ts.env.client.workflow.start(gitPushWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `git-push-failing-${randomUUID()}`,
    // The time-skipping server waits out an activity's retry backoff in real time (2 + 4 + 8 + 16 s by default).
    args: [
      {
        request: { organizationId: 'org-1', projectId: 'project-1', sha: SHA },
        taskQueue: ts.taskQueue,
        retryInitialIntervalMs: 10,
      },
    ],
  });
  expect((await failing.result()).status).toBe('failed');
  expect(calls.filter((c) => c.startsWith('push ')).length).toBe(1 + 5);
  pushFails = false;
  await keep('git-push-failed', failing);
});

it('maintains one repository, or every repository when the schedule names none', async () => {
  const one = await ts.env.client.workflow.start(repositoryMaintenanceWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `git-maintenance-${randomUUID()}`,
    args: [{ taskQueue: ts.taskQueue, target: { organizationId: 'org-1', projectId: 'project-1' } }],
  });
  expect(await one.result()).toBe(1);
  const all = await ts.env.client.workflow.start(repositoryMaintenanceWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `git-maintenance-${randomUUID()}`,
    args: [{ taskQueue: ts.taskQueue, target: null }],
  });
  expect(await all.result()).toBe(0);
  expect(calls).toEqual(['maintain project-1', 'maintain all']);
  await keep('repository-maintenance-one', one);
  await keep('repository-maintenance-all', all);
});
