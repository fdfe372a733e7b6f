import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { createActivities } from '../../activities';
import { digestItemSignal, type DigestItem } from '../../src/notifications/notification-workflow-contract';
import { notificationDigestWorkflow } from '../../workflows/notification-digest';
import { startStubWorker } from '../helpers/time-skipping';
import { historiesOf } from '../helpers/workflow-histories';

const { keep } = historiesOf('digest');

/** The per-member digest on the time-skipping server: one summary per window, deduplicated, continue-as-new. */
type DigestActivities = Pick<ReturnType<typeof createActivities>, 'sendDigest'>;

const HOUR = 3_600_000;
let env: TestWorkflowEnvironment;
let taskQueue: string;
let close: () => Promise<void>;
let sent: { userId: string; events: string[]; atMs: number }[];

const stubs = (): DigestActivities => ({
  sendDigest: async (input) => {
    sent.push({
      userId: input.userId,
      events: input.items.map((i) => i.eventId),
      atMs: Context.current().info.scheduledTimestampMs,
    });
    return 'sent';
  },
});

const item = (eventId: string): DigestItem => ({
  eventId,
  event: 'release.deploy',
  title: eventId,
  occurredAt: new Date().toISOString(),
  projectId: null,
  intervalMs: HOUR,
});

beforeAll(async () => {
  ({ env, taskQueue, close } = await startStubWorker(stubs()));
}, 120_000);
afterAll(() => close?.());
beforeEach(() => {
  sent = [];
});

async function digest(sendsPerRun: number) {
  const userId = randomUUID();
  const start = (first: DigestItem) =>
    env.client.workflow.signalWithStart(notificationDigestWorkflow, {
      taskQueue,
      workflowId: `notification-digest-org-${userId}`,
      args: [{ organizationId: 'org', userId, sendsPerRun }],
      signal: digestItemSignal,
      signalArgs: [first],
    });
  return { userId, start, mine: () => sent.filter((s) => s.userId === userId) };
}

describe('notification digest workflow', () => {
  it('gathers the items of one interval into one summary, once per event', async () => {
    const t0 = await env.currentTimeMs();
    const { start, mine } = await digest(10);
    const handle = await start(item('a'));
    await handle.signal(digestItemSignal, item('b'));
    await handle.signal(digestItemSignal, item('a'));
    await env.sleep(2 * HOUR);
    expect(mine().map((s) => s.events)).toEqual([['a', 'b']]);
    expect(mine()[0]!.atMs - t0).toBeGreaterThanOrEqual(HOUR);
    await handle.signal(digestItemSignal, item('c'));
    await env.sleep(2 * HOUR);
    expect(mine().map((s) => s.events)).toEqual([['a', 'b'], ['c']]);
    await handle.terminate();
    await keep('two-windows', handle);
  });

  it('continues as new after its summaries and keeps what arrived meanwhile', async () => {
    const { start, mine } = await digest(1);
    const handle = await start(item('x'));
    await env.sleep(2 * HOUR);
    await env.client.workflow.getHandle(handle.workflowId).signal(digestItemSignal, item('y'));
    await env.sleep(2 * HOUR);
    expect(mine().map((s) => s.events)).toEqual([['x'], ['y']]);
    const described = await env.client.workflow.getHandle(handle.workflowId).describe();
    expect(described.runId).not.toBe(handle.signaledRunId);
    await keep('continued-as-new', env.client.workflow.getHandle(handle.workflowId, handle.signaledRunId));
    await env.client.workflow.getHandle(handle.workflowId).terminate();
  });
});
