import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { InvalidInput } from '../../../src/errors';
import { timelinePage, type TimelineEntry } from '../../../src/releases/release-history';
import { latestRun, reverseHistoryReader, type ReverseReader } from '../../../src/temporal/history-reader';
import { installTemporalRuntime } from '../../../src/temporal/runtime';
import { harnessState } from '../../helpers/harness-state';
import { bundle } from '../../helpers/time-skipping';
import { chainedStepsWorkflow, type ChainedActivities } from './fixtures/chained-workflows';

/**
 * The timeline of a workflow history read in bounded pages, newest first, on the real dev server: a workflow that
 * continued as new twice, read through the reverse history API with pages of a few events, gives the same
 * timeline whatever the page sizes, crosses the runs, and never reads the whole history in one request.
 */
const SHA = 'c0ffee0123456789c0ffee0123456789c0ffee01';
let connection: Connection;
let native: NativeConnection;
let client: Client;
let worker: Worker;
let running: Promise<void>;
const taskQueue = `history-pages-${randomUUID()}`;
const workflowId = `chained-${randomUUID()}`;

const activities: ChainedActivities = {
  transitionRelease: async ({ to }) => to,
  markReleaseCommitted: async () => undefined,
  notifyNobody: async () => undefined,
};

beforeAll(async () => {
  installTemporalRuntime();
  const address = harnessState().temporalAddress;
  connection = await Connection.connect({ address });
  native = await NativeConnection.connect({ address });
  client = new Client({ connection });
  worker = await Worker.create({
    connection: native,
    taskQueue,
    workflowBundle: await bundle(require.resolve('./fixtures/chained-workflows')),
    activities,
  });
  running = worker.run();
  const handle = await client.workflow.start(chainedStepsWorkflow, {
    taskQueue,
    workflowId,
    args: [{ runs: 3, steps: 6, sha: SHA }],
  });
  await handle.result();
}, 120_000);
afterAll(async () => {
  worker?.shutdown();
  await running;
  await native?.close();
  await connection?.close();
});

/** What the timeline says, newest first: run 3 committed before its third step, each later run continued the one before. */
function expected(): Pick<TimelineEntry, 'step' | 'commitSha'>[] {
  const out: Pick<TimelineEntry, 'step' | 'commitSha'>[] = [];
  let sha: string | null = SHA;
  for (const run of [3, 2, 1]) {
    for (let i = 6; i >= 1; i -= 1) {
      out.push({ step: `status r${run}s${i}`, commitSha: sha });
      if (run === 3 && i === 3) {
        out.push({ step: 'committed', commitSha: SHA });
        sha = null;
      }
    }
    out.push({ step: run === 1 ? 'created' : 'continued as new', commitSha: null });
  }
  return out;
}

/** Every page, following nextCursor, and the most events one request read. */
async function readAll(pageEvents: number, limit: number) {
  let events = 0;
  const reader = reverseHistoryReader(client, workflowId, pageEvents);
  const counting: ReverseReader = async (at) => {
    const page = await reader(at);
    events += page.events.length;
    return page;
  };
  const entries: TimelineEntry[] = [];
  let cursor: string | undefined;
  let most = 0;
  let requests = 0;
  do {
    events = 0;
    const page = await timelinePage(
      counting,
      cursor ? null : await latestRun(client, workflowId),
      { limit, cursor },
      SHA,
    );
    expect(page.timeline.length).toBeLessThanOrEqual(limit);
    entries.push(...page.timeline);
    cursor = page.nextCursor ?? undefined;
    most = Math.max(most, events);
    requests += 1;
  } while (cursor && requests < 200);
  return { entries, most, requests };
}

async function totalEvents(): Promise<number> {
  let total = 0;
  for (
    let at: Parameters<ReverseReader>[0] | null = { runId: (await latestRun(client, workflowId))!, token: null };
    at;
  ) {
    const page = await reverseHistoryReader(client, workflowId, 1_000)(at);
    total += page.events.length;
    at = page.next;
  }
  return total;
}

it('reads the timeline of every run newest first, in pages of any size, the same either way', async () => {
  const want = expected();
  const total = await totalEvents();
  for (const [pageEvents, limit] of [
    [1_000, 100],
    [5, 4],
    [3, 1],
    [40, 7],
  ] as const) {
    const { entries, most, requests } = await readAll(pageEvents, limit);
    expect([pageEvents, limit, entries.map((e) => ({ step: e.step, commitSha: e.commitSha }))]).toEqual([
      pageEvents,
      limit,
      want,
    ]);
    expect(new Set(entries.map((e) => e.time)).size).toBeGreaterThan(1);
    expect(entries.map((e) => e.time)).toEqual([...entries.map((e) => e.time)].sort().reverse());
    if (limit < want.length) {
      // Small pages: no request read the whole history, and one of one entry read a few pages of the server.
      expect(requests).toBeGreaterThan(1);
      expect(most).toBeLessThan(total);
      if (limit === 1) expect(most).toBeLessThan(total / 8);
    }
  }
});

it('refuses a cursor it did not make, and one naming another run, as invalid input', async () => {
  const reader = reverseHistoryReader(client, workflowId, 5);
  const first = await timelinePage(reader, await latestRun(client, workflowId), { limit: 2 }, SHA);
  const [tag, , token, before, sha] = JSON.parse(Buffer.from(first.nextCursor!, 'base64url').toString()) as unknown[];
  const forged = (value: unknown[]) => Buffer.from(JSON.stringify(value)).toString('base64url');
  for (const cursor of [
    'not-a-cursor',
    forged([tag, randomUUID(), token, before, sha]),
    forged([tag, (await latestRun(client, workflowId))!, Buffer.from('garbage').toString('base64'), before, sha]),
    forged([tag, 'x', token, before, sha]),
    forged([tag, randomUUID(), token, -1, sha]),
  ]) {
    await expect(timelinePage(reader, null, { limit: 2, cursor }, SHA)).rejects.toBeInstanceOf(InvalidInput);
  }
});

it('answers an empty timeline for a workflow the server does not have', async () => {
  const missing = `chained-${randomUUID()}`;
  expect(await latestRun(client, missing)).toBeNull();
  const page = await timelinePage(reverseHistoryReader(client, missing, 5), null, { limit: 5 }, null);
  expect(page).toEqual({ timeline: [], nextCursor: null });
});
