import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { QueuedImageUpdate } from '../src/webhooks/image-update-batch';
import {
  imageUpdateSignal,
  type ImageUpdateActivities,
  type ImageUpdatesInput,
} from '../src/webhooks/image-update-workflow-contract';
import {
  afterCommit,
  COMMIT_RETRY,
  commitOnGitQueue,
  commitWaitNote,
  outlastingOutages,
  patientOptions,
} from './git-commit';
import { runIsLong } from './lib/wait-until-clear';

/** A run with nothing queued for this long ends; the next request starts a new one (signal-with-start). */
export const IMAGE_UPDATES_IDLE_MS = 10 * 60_000;

// Local activities (two short queries each, in the worker running the workflow): no task queue round trip per batch.
const { planImageBatch, finishImageBatch, failImageRequests, noteImageRequestsWaiting } =
  proxyLocalActivities<ImageUpdateActivities>({
    startToCloseTimeout: '1 minute',
    // Until it lands: a request answered 202 is finished, never dropped.
    retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
  });
/** The batch's commit, in the workflow task that received its requests; retried as the commit activity is. */
const { commitImageRequests } = proxyLocalActivities<ImageUpdateActivities>({
  startToCloseTimeout: '2 minutes',
  retry: COMMIT_RETRY,
});

/**
 * Patch id: the batch's commit runs as a local activity in the workflow task that planned it (commitOnGitQueue's
 * `local`; issue 35: no task queue round trip and no second workflow task between a request's signal and its commit).
 */
const LOCAL_COMMIT = 'image-updates-local-commit';
/**
 * Patch id: a batch is planned, committed and finished in one step, inside the commit's unit (issue 35:
 * src/webhooks/image-webhook-operation.ts), so the API processes that commit requests themselves and this workflow,
 * which takes what they could not, never commit an older signed tag over a newer one.
 */
const PLANNED_IN_COMMIT = 'image-updates-planned-in-commit';
/**
 * Patch id: a batch's commit waiting out a Git storage outage says so on its requests (their status URL's `waiting`),
 * until the batch is finished (issue 43).
 */
const WAIT_NOTED = 'image-updates-wait-noted';
/**
 * Runs with local commits continue as new at this many events. Under a steady stream of requests, a signal that
 * arrives while the continue-as-new task runs makes the server refuse it, and the worker then replays the whole run
 * (about 0.7 ms an event here, bench:webhook): short runs keep that pause short.
 */
const LOCAL_RUN_EVENTS = 300;

/** Why a commit failed, in words (a refusal's message, or the last attempt's). */
function reasonOf(err: unknown): string {
  let cause: unknown = err;
  while (cause) {
    if (cause instanceof ApplicationFailure) return cause.message;
    cause = (cause as { cause?: unknown }).cause;
  }
  return err instanceof Error ? err.message : 'commit failed';
}

/** The note of the batch commit waiting out an outage right now (null: none waits), for the requests that arrive. */
interface OutageWait {
  note: string | null;
}

/** One batch planned, committed and finished in the commit's unit; a commit that never lands fails its requests. */
async function commitBatch(input: ImageUpdatesInput, entries: QueuedImageUpdate[], wait: OutageWait): Promise<void> {
  const { organizationId, projectId } = input;
  try {
    const workflowId = workflowInfo().workflowId;
    const batch = { organizationId, projectId, entries, workflowId };
    // An outage (a full disk, a missing volume) delays the batch: the same commit as an activity any worker may take.
    const patience = {
      patienceMs: input.commitPatienceMs,
      onOutage: async (reason: string) => {
        if (!patched(WAIT_NOTED)) return;
        const note = commitWaitNote(reason, Date.now());
        wait.note = note;
        await noteImageRequestsWaiting({ projectId, webhookIds: entries.map((e) => e.webhookId), note });
      },
    };
    const outcome = await outlastingOutages(
      () => commitImageRequests(batch),
      () =>
        proxyActivities<ImageUpdateActivities>({
          startToCloseTimeout: '2 minutes',
          ...patientOptions(patience),
        }).commitImageRequests(batch),
      patience,
    );
    wait.note = null;
    await afterCommit(input, outcome, input.gitTaskQueue);
  } catch (err) {
    wait.note = null;
    await failImageRequests({ projectId, webhookIds: entries.map((e) => e.webhookId), error: reasonOf(err) });
  }
}

/**
 * The inbound image updates of one project, in one workflow: each verified request arrives as a signal (recorded in
 * the history before the API answers), the requests that arrive while a commit runs go into one next commit (group
 * commit), the newest signed tag of a target wins whatever API process took it, and each request's row is finished
 * with the commit's SHA or its failure. Idle runs end; long ones continue as new with what is still queued.
 */
export async function imageUpdatesWorkflow(input: ImageUpdatesInput): Promise<void> {
  const pending: QueuedImageUpdate[] = [...(input.pending ?? [])];
  const { organizationId, projectId } = input;
  const wait: OutageWait = { note: null };
  setHandler(imageUpdateSignal, async (entry) => {
    if (pending.some((p) => p.webhookId === entry.webhookId)) return;
    pending.push(entry);
    // It waits behind a batch whose commit waits out an outage: its status URL says so as the batch's requests' do.
    const note = wait.note;
    if (note !== null) await noteImageRequestsWaiting({ projectId, webhookIds: [entry.webhookId], note });
  });
  const local = patched(LOCAL_COMMIT);
  const continueWith = async (queued: QueuedImageUpdate[]) => {
    await condition(allHandlersFinished);
    await continueAsNew<typeof imageUpdatesWorkflow>({ ...input, pending: queued });
  };
  for (;;) {
    if (pending.length === 0) await condition(() => pending.length > 0, IMAGE_UPDATES_IDLE_MS);
    if (pending.length === 0) return;
    // A long run continues as new in a workflow task of its own, before planning: signals arriving while a task runs
    // its local activities would make the server refuse that task's continue-as-new (and it would run them again).
    if (local && runIsLong(LOCAL_RUN_EVENTS)) await continueWith(pending);
    if (patched(PLANNED_IN_COMMIT)) {
      await commitBatch(input, pending.splice(0, pending.length), wait);
      if (!local && runIsLong()) await continueWith(pending);
      continue;
    }
    const batch = await planImageBatch({ organizationId, projectId, entries: pending.splice(0, pending.length) });
    let sha: string | null = null;
    let error: string | null = null;
    if (batch.commit) {
      try {
        const request = { ...batch.commit, workflowId: workflowInfo().workflowId };
        sha = (await commitOnGitQueue(request, input.gitTaskQueue, local)).sha;
      } catch (err) {
        error = reasonOf(err);
      }
    }
    await finishImageBatch({ projectId, batch, sha, error });
    if (!local && runIsLong()) await continueWith(pending);
  }
}
