import { scaled } from '../helpers/time-scale';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { planBatch, targetKey, type BatchPlan, type QueuedImageUpdate } from '../../src/webhooks/image-update-batch';
import { imageUpdateSignal, type ImageUpdateActivities } from '../../src/webhooks/image-update-workflow-contract';
import { IMAGE_UPDATES_IDLE_MS, imageUpdatesWorkflow } from '../../workflows/image-updates';
import { COMMIT_RETRY } from '../../workflows/git-commit';
import { HISTORY_BUDGET, runHistoryLengths } from '../helpers/history-budget';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { historiesOf } from '../helpers/workflow-histories';

/**
 * The per-project image-update workflow on the time-skipping server, with stub activities that keep the request rows
 * and the committed marks in memory the way the real ones keep them in PostgreSQL: group commit while a commit runs,
 * the newest signed tag winning, a refused commit finishing its requests as failed, an idle run ending, and a long
 * stream of requests continuing as new under the history budget. Each path's history is kept for the replay test.
 */
const finished = new Map<string, { sha: string | null; error: string | null; superseded: string[] }>();
const marks = new Map<string, number>();
/** The plans of the batches that changed something, in commit order. */
const commits: BatchPlan[] = [];
let hold: Promise<void> = Promise.resolve();
let refuse = false;
/** How many commit attempts fail through the infrastructure (a full disk) before one lands. */
let outageAttempts = 0;

function finish(webhookIds: string[], plan: BatchPlan, sha: string | null, error: string | null) {
  if (!error) for (const m of plan.marks) marks.set(targetKey(m), m.signedAt);
  for (const id of webhookIds) {
    if (finished.has(id)) continue;
    const superseded = (plan.superseded[id] ?? []).map((t) => `${t.workload}/${t.tenant}`);
    finished.set(id, { sha, error, superseded });
  }
}

/** Planned, committed and finished in one step, as the commit path's image-webhook operation does it. */
/** What the requests' status URL says while their commit waits out an outage (per webhook id). */
const waiting = new Map<string, string>();

const stubs: Pick<ImageUpdateActivities, 'commitImageRequests' | 'failImageRequests' | 'noteImageRequestsWaiting'> = {
  noteImageRequestsWaiting: async ({ webhookIds, note }) => {
    for (const id of webhookIds) waiting.set(id, note);
  },
  commitImageRequests: async ({ entries }) => {
    if (outageAttempts > 0) {
      outageAttempts -= 1;
      throw new Error('ENOSPC: no space left on device');
    }
    const live = entries.filter((e) => !finished.has(e.webhookId));
    const plan = planBatch(live, marks);
    if (plan.updates.length > 0) {
      commits.push(plan);
      await hold;
      if (refuse) throw ApplicationFailure.nonRetryable('frozen by Weekend', 'frozen');
    }
    const sha = plan.updates.length > 0 ? `${commits.length}`.padStart(40, '0') : null;
    finish(
      live.map((e) => e.webhookId),
      plan,
      sha,
      null,
    );
    return { sha, created: sha !== null, auditIds: [], remote: false };
  },
  failImageRequests: async ({ webhookIds, error }) => {
    finish(webhookIds, { updates: [], marks: [], superseded: {} }, null, error);
  },
};

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs);
const { keep } = historiesOf('image-updates');

function entry(tag: string, signedAt: number, tenant = 'acme'): QueuedImageUpdate {
  const webhookId = randomUUID();
  return {
    webhookId,
    requestId: `req-${tag}`,
    signedAt,
    updates: [{ workload: 'web', tag, requestId: `req-${tag}`, pairs: [{ tenant, environment: 'dev' }] }],
  };
}

async function send(workflowId: string, e: QueuedImageUpdate) {
  await ts.env.client.workflow.signalWithStart(imageUpdatesWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId,
    args: [{ organizationId: 'org-1', projectId: workflowId, gitTaskQueue: ts.taskQueue }],
    signal: imageUpdateSignal,
    signalArgs: [e],
  });
}

async function until(probe: () => boolean, what: string) {
  for (const deadline = Date.now() + scaled(30_000); !probe();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(() => {
  commits.length = 0;
  marks.clear();
  refuse = false;
  hold = Promise.resolve();
});

it('groups the requests that arrive during a commit into one next commit, the newest signed tag winning', async () => {
  const workflowId = `image-updates-${randomUUID()}`;
  let release = () => undefined as void;
  hold = new Promise((r) => (release = r));
  const first = entry('1', 1_000);
  await send(workflowId, first);
  await until(() => commits.length === 1, 'the first commit');
  // While it commits: a newer tag, then an older one for the same target, and another tenant's.
  const newer = entry('3', 3_000);
  const older = entry('2', 2_000);
  const other = entry('4', 4_000, 'globex');
  for (const e of [newer, older, other]) await send(workflowId, e);
  release();
  await until(() => finished.has(other.webhookId), 'the second batch');
  expect(commits).toHaveLength(2);
  expect(commits[1]!.updates.map((u) => u.tag).sort()).toEqual(['3', '4']);
  expect(finished.get(first.webhookId)).toEqual({ sha: '1'.padStart(40, '0'), error: null, superseded: [] });
  expect(finished.get(older.webhookId)).toEqual({ sha: '2'.padStart(40, '0'), error: null, superseded: ['web/acme'] });
  // A request signed before what was committed, arriving later, commits nothing and is told so.
  const late = entry('0', 500);
  await send(workflowId, late);
  await until(() => finished.has(late.webhookId), 'the late request');
  expect(commits).toHaveLength(2);
  expect(finished.get(late.webhookId)).toEqual({ sha: null, error: null, superseded: ['web/acme'] });
  // Idle: the run ends; the next request starts a new one.
  await ts.env.sleep(IMAGE_UPDATES_IDLE_MS + 1_000);
  const handle = ts.env.client.workflow.getHandle(workflowId);
  await handle.result();
  await keep('image-updates-group', handle);
});

it('finishes the requests of a refused commit as failed, with the reason', async () => {
  const workflowId = `image-updates-${randomUUID()}`;
  refuse = true;
  const e = entry('5', 5_000);
  await send(workflowId, e);
  await until(() => finished.has(e.webhookId), 'the refused batch');
  expect(finished.get(e.webhookId)).toEqual({ sha: null, error: 'frozen by Weekend', superseded: [] });
  expect(marks.size).toBe(0);
  const handle = ts.env.client.workflow.getHandle(workflowId);
  await ts.env.sleep(IMAGE_UPDATES_IDLE_MS + 1_000);
  await handle.result();
  await keep('image-updates-refused', handle);
});

it('commits a batch after a Git storage outage longer than its first attempts, failing no request, each request saying why it waits', async () => {
  const workflowId = `image-updates-${randomUUID()}`;
  outageAttempts = COMMIT_RETRY.maximumAttempts + 2;
  // The attempt that lands holds until released: the batch is still waiting out the outage when the next request comes.
  let release!: () => void;
  hold = new Promise((r) => (release = r));
  const e = entry('6', 6_000);
  await send(workflowId, e);
  await until(() => waiting.has(e.webhookId), 'the batch waiting out the outage');
  // Its status URL says why it waits, and since when.
  const note = waiting.get(e.webhookId)!;
  expect(note).toMatch(/^commit waiting for the Git volume: .*ENOSPC: no space left on device, retrying since \d{4}-/);
  // A request arriving meanwhile waits behind that batch: its status URL says the same.
  const late = entry('7', 7_000, 'globex');
  await send(workflowId, late);
  await until(() => waiting.has(late.webhookId), 'the late request noted');
  expect(waiting.get(late.webhookId)).toBe(note);
  release();
  await until(() => finished.has(e.webhookId) && finished.has(late.webhookId), 'both batches after the outage');
  expect(outageAttempts).toBe(0);
  expect(finished.get(e.webhookId)).toEqual({ sha: '1'.padStart(40, '0'), error: null, superseded: [] });
  expect(finished.get(late.webhookId)).toEqual({ sha: '2'.padStart(40, '0'), error: null, superseded: [] });
  const handle = ts.env.client.workflow.getHandle(workflowId);
  await ts.env.sleep(IMAGE_UPDATES_IDLE_MS + 1_000);
  await handle.result();
  await keep('image-updates-outage', handle);
});

it('continues as new with what is queued when a run grows long, every run under the budget', async () => {
  const workflowId = `image-updates-${randomUUID()}`;
  const sent: QueuedImageUpdate[] = [];
  const first = entry('s0', 10_000);
  await send(workflowId, first);
  const { firstExecutionRunId } = await ts.env.client.workflow
    .getHandle(workflowId)
    .describe()
    .then((d) => ({
      firstExecutionRunId: d.runId,
    }));
  sent.push(first);
  for (let i = 1; i < 240; i += 1) {
    const e = entry(`s${i}`, 10_000 + i);
    sent.push(e);
    await send(workflowId, e);
    if (i % 2 === 0) await until(() => finished.has(e.webhookId), `request ${i}`);
  }
  await until(() => sent.every((e) => finished.has(e.webhookId)), 'every request');
  expect(marks.get(targetKey({ workload: 'web', tenant: 'acme', environment: 'dev' }))).toBe(10_239);
  const lengths = await runHistoryLengths(ts.env.client, workflowId, firstExecutionRunId);
  expect(lengths.length).toBeGreaterThan(1);
  expect(Math.max(...lengths)).toBeLessThan(HISTORY_BUDGET);
  await keep('image-updates-continued', ts.env.client.workflow.getHandle(workflowId, firstExecutionRunId));
  await ts.env.client.workflow.getHandle(workflowId).terminate('test over');
}, 180_000);
