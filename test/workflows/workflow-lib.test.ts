import { randomUUID } from 'node:crypto';
import { timeSkippingWorker } from '../helpers/time-skipping';
import {
  deadlineWorkflow,
  finishSignal,
  moveSignal,
  stopSignal,
  turnsWorkflow,
  workUpdate,
  type LibActivities,
} from './fixtures/lib-workflows';

const HOUR_MS = 3_600_000;

const order: string[] = [];
let inFlight = 0;
let maxInFlight = 0;

const activities: LibActivities = {
  async step(name) {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    order.push(`start ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push(`end ${name}`);
    inFlight -= 1;
  },
};

const ts = timeSkippingWorker(require.resolve('./fixtures/lib-workflows'), activities);

describe('Turns', () => {
  it('runs concurrent updates one at a time, never interleaving their activities', async () => {
    const handle = await ts.env.client.workflow.start(turnsWorkflow, {
      taskQueue: ts.taskQueue,
      workflowId: `turns-${randomUUID()}`,
    });
    const names = ['a', 'b', 'c'];
    const answers = await Promise.all(names.map((n) => handle.executeUpdate(workUpdate, { args: [n] })));
    await handle.signal(finishSignal);
    await handle.result();
    expect(answers.sort()).toEqual(names);
    expect(maxInFlight).toBe(1);
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]!.replace('start', 'end'));
  });
});

describe('ResettableDeadline', () => {
  it('fires at its deadline', async () => {
    const start = await ts.env.currentTimeMs();
    const handle = await ts.env.client.workflow.start(deadlineWorkflow, {
      taskQueue: ts.taskQueue,
      workflowId: `deadline-${randomUUID()}`,
      args: [start + 24 * HOUR_MS],
    });
    const result = await handle.result();
    expect(result.outcome).toBe('expired');
    expect(result.atMs).toBeGreaterThanOrEqual(start + 24 * HOUR_MS);
  });

  it('follows a moved deadline (later and earlier) instead of firing at the old one', async () => {
    const start = await ts.env.currentTimeMs();
    const handle = await ts.env.client.workflow.start(deadlineWorkflow, {
      taskQueue: ts.taskQueue,
      workflowId: `deadline-${randomUUID()}`,
      args: [start + 24 * HOUR_MS],
    });
    await ts.env.sleep(12 * HOUR_MS);
    await handle.signal(moveSignal, start + 72 * HOUR_MS);
    await ts.env.sleep(24 * HOUR_MS);
    await handle.signal(moveSignal, start + 48 * HOUR_MS);
    const result = await handle.result();
    expect(result.outcome).toBe('expired');
    expect(result.atMs).toBeGreaterThanOrEqual(start + 48 * HOUR_MS);
    expect(result.atMs).toBeLessThan(start + 72 * HOUR_MS);
  });

  it('ends early, without expiring, when its condition holds', async () => {
    const start = await ts.env.currentTimeMs();
    const handle = await ts.env.client.workflow.start(deadlineWorkflow, {
      taskQueue: ts.taskQueue,
      workflowId: `deadline-${randomUUID()}`,
      args: [start + 24 * HOUR_MS],
    });
    await ts.env.sleep(HOUR_MS);
    await handle.signal(stopSignal);
    const result = await handle.result();
    expect(result.outcome).toBe('stopped');
    expect(result.atMs).toBeLessThan(start + 24 * HOUR_MS);
  });
});
