import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { PageRequest } from '../db/pagination';
import { localActivityMarker } from '../temporal/local-activity-marker';
import { decodeTimelineCursor, encodeTimelineCursor, type TimelineCursor } from '../temporal/history-cursor';
import type { Client } from '@temporalio/client';
import {
  latestRun,
  decodePayloads,
  reverseHistoryReader,
  type HistoryEvent,
  type HistoryPosition,
  type ReverseReader,
} from '../temporal/history-reader';

const EventType = temporal.api.enums.v1.EventType;

export interface TimelineEntry {
  step: string;
  actor: string | null;
  time: string;
  result: unknown;
  commitSha: string | null;
}

export interface TimelinePage {
  /** Newest first. */
  timeline: TimelineEntry[];
  nextCursor: string | null;
}

/**
 * Activities of the release and promotion workflows and the step each one is on the timeline, from their input (none
 * for a local activity: its marker keeps only the result) and their result.
 */
const STEPS: Record<string, (input: Record<string, unknown>, result: unknown) => string> = {
  evaluatePromotion: () => 'evaluate the causes',
  transitionPromotion: (i) => `status ${String(i.to)}`,
  recordPromotionApproval: () => 'approve',
  markPromotionCommitted: () => 'committed',
  notePromotionCommitWait: () => 'commit waits out a Git storage outage',
  recordPromotionSync: (i) => `sync report ${String(i.report && (i.report as { tenant?: string }).tenant)}`,
  // Asked with `turnFor`, the prepare step may take the target too (its result then holds the turn, issue 46).
  prepareRelease: (_i, result) =>
    (result as { turn?: unknown } | null)?.turn ? 'validate, take the target' : 'validate',
  transitionRelease: (i) => `status ${String(i.to)}`,
  finishRelease: (i) => `end ${String(i.to)}`,
  recordReleaseDecision: (i) => String(i.decision),
  acquireReleaseTarget: () => 'take the target',
  takeReleaseTurn: () => 'take the target',
  markReleaseCommitted: () => 'committed',
  noteReleaseCommitWait: () => 'commit waits out a Git storage outage',
  recordReleaseSync: () => 'sync report',
  commitToRepository: () => 'commit',
};

/** Events one request reads before it stops taking entries, and pages it reads past them to name their activities. */
const HISTORY_READ_EVENTS = 1_000;
const LOOKAHEAD_PAGES = 2;
/** Events per page asked of the server. */
const SERVER_PAGE_EVENTS = 250;

function timeOf(event: HistoryEvent): string {
  const t = event.eventTime;
  const ms = Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
  return new Date(ms).toISOString();
}

function actorOf(value: unknown): string | null {
  const v = value as { actor?: { actor?: unknown }; report?: { actor?: { actor?: unknown } } } | null;
  const actor = v?.actor?.actor ?? v?.report?.actor?.actor;
  return typeof actor === 'string' ? actor : null;
}

const shaOf = (value: unknown) => (value as { sha?: string | null } | null)?.sha ?? null;

/**
 * One timeline entry in the making. An activity's completion is where it sits on the timeline, but its name and
 * input are on its scheduled event, older and maybe on a later page: `activity` waits for it.
 */
interface Slot {
  eventId: number;
  entry: Omit<TimelineEntry, 'commitSha'>;
  /** The SHA this step committed (a commit step), undefined for any other step. */
  commits?: string | null;
  activity?: { runId: string; scheduledId: number; result: unknown; named: boolean; hidden: boolean };
}

/** The entry an event starts, if it starts one. */
function slotOf(event: HistoryEvent, runId: string): Slot | null {
  const eventId = Number(event.eventId);
  const time = timeOf(event);
  switch (event.eventType) {
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED: {
      const attrs = event.workflowExecutionStartedEventAttributes;
      if (attrs?.continuedExecutionRunId) {
        return { eventId, entry: { step: 'continued as new', actor: null, time, result: null } };
      }
      const [input] = decodePayloads(attrs?.input?.payloads as Payload[]);
      const requester = (input as { requester?: { actor?: string } } | null)?.requester?.actor ?? null;
      return { eventId, entry: { step: 'created', actor: requester, time, result: null } };
    }
    case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
      const attrs = event.activityTaskCompletedEventAttributes;
      const [result] = decodePayloads(attrs?.result?.payloads as Payload[]);
      const scheduledId = Number(attrs?.scheduledEventId);
      const activity = { runId, scheduledId, result: result ?? null, named: false, hidden: false };
      return { eventId, entry: { step: 'activity', actor: null, time, result: result ?? null }, activity };
    }
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED: {
      const request = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
      const [args] = decodePayloads(request?.args?.payloads as Payload[]);
      const step = `request ${request?.name ?? 'update'}`;
      return { eventId, entry: { step, actor: actorOf(args), time, result: null } };
    }
    case EventType.EVENT_TYPE_MARKER_RECORDED:
      return localActivitySlot(event, eventId);
    case EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED: {
      const [result] = decodePayloads(
        event.childWorkflowExecutionCompletedEventAttributes?.result?.payloads as Payload[],
      );
      return { eventId, entry: { step: 'commit', actor: null, time, result }, commits: shaOf(result) };
    }
    default:
      return null;
  }
}

/**
 * The entry of a local activity (a release's steps up to its commit run as local activities): named and timed by its
 * marker, which holds no input, so the step shows no actor (the request or update before it names who acted).
 */
function localActivitySlot(event: HistoryEvent, eventId: number): Slot | null {
  const marker = localActivityMarker(event);
  const label = marker && STEPS[marker.activityType];
  if (!marker || !label) return null;
  const time = marker.completedMs === null ? timeOf(event) : new Date(Math.floor(marker.completedMs)).toISOString();
  const entry = { step: label({}, marker.result), actor: null, time, result: marker.result };
  return marker.activityType === 'commitToRepository'
    ? { eventId, entry, commits: shaOf(marker.result) }
    : { eventId, entry };
}

/** Names the waiting activity slots a scheduled event belongs to (steps of other activities stay off the timeline). */
function nameActivity(event: HistoryEvent, runId: string, waiting: Slot[]): void {
  if (event.eventType !== EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) return;
  const slot = waiting.find((s) => s.activity?.runId === runId && s.activity.scheduledId === Number(event.eventId));
  if (!slot?.activity) return;
  const attrs = event.activityTaskScheduledEventAttributes;
  const name = attrs?.activityType?.name ?? '';
  const [raw] = decodePayloads(attrs?.input?.payloads as Payload[]);
  const input = (raw ?? {}) as Record<string, unknown>;
  const label = STEPS[name];
  slot.activity.named = true;
  slot.activity.hidden = !label;
  if (!label) return;
  slot.entry = { ...slot.entry, step: label(input, slot.activity.result), actor: actorOf(input) };
  if (name === 'markReleaseCommitted') slot.commits = String(input.sha);
  if (name === 'commitToRepository') slot.commits = shaOf(slot.activity.result);
}

/**
 * One page of the workflow's timeline, newest first: each step (activity), who acted (from the step's own input:
 * history keeps no end-user identity otherwise), when it completed, its result, and the commit SHA once there is
 * one. Accepted Updates (approve, deploy, ...) appear as the requests they were; rejected ones leave no history.
 *
 * Bounded per request: the reverse read stops taking entries at `limit` or after HISTORY_READ_EVENTS events, then
 * reads at most LOOKAHEAD_PAGES more pages to name the activities whose scheduled event is older than what it took
 * (one still unnamed is shown as `activity`). `latestSha` is the row's commit: the newest entries carry it.
 */
export async function timelinePage(
  read: ReverseReader,
  latestRunId: string | null,
  page: PageRequest,
  latestSha: string | null,
): Promise<TimelinePage> {
  const start: TimelineCursor | null = page.cursor
    ? decodeTimelineCursor(page.cursor)
    : latestRunId
      ? { runId: latestRunId, token: null, before: null, sha: latestSha }
      : null;
  if (!start) return { timeline: [], nextCursor: null };
  const taken: Slot[] = [];
  let cut: (HistoryPosition & { before: number | null }) | null = null;
  let position: HistoryPosition | null = start;
  let before = start.before;
  let readEvents = 0;
  let lookahead = 0;
  while (position) {
    const waiting = taken.filter((s) => s.activity && !s.activity.named);
    if (cut && (waiting.length === 0 || lookahead++ >= LOOKAHEAD_PAGES)) break;
    const current: HistoryPosition = position;
    const { events, next } = await read(current);
    readEvents += events.length;
    // The next page starts after the last entry taken from this page, or at its top when none was.
    let lastTaken: number | null = before;
    for (const event of events) {
      nameActivity(event, current.runId, waiting);
      if (cut || (before !== null && Number(event.eventId) >= before)) continue;
      const slot = slotOf(event, current.runId);
      if (!slot) continue;
      if (taken.length === page.limit) {
        // The rest of this page is still read, for the names of the activities taken.
        cut = { ...current, before: lastTaken };
        continue;
      }
      taken.push(slot);
      waiting.push(slot);
      lastTaken = slot.eventId;
    }
    before = null;
    position = next;
    if (!cut && readEvents >= HISTORY_READ_EVENTS && next) cut = { ...next, before: null };
  }
  return finish(taken, start.sha, cut);
}

/** The entries in order with the commit SHA each carries (the SHA of the nearest commit at or before it). */
function finish(
  taken: Slot[],
  sha: string | null,
  cut: (HistoryPosition & { before: number | null }) | null,
): TimelinePage {
  const timeline: TimelineEntry[] = [];
  let carried = sha;
  for (const slot of taken) {
    if (slot.activity?.hidden) continue;
    if (slot.commits !== undefined) {
      timeline.push({ ...slot.entry, commitSha: slot.commits ?? carried });
      carried = null;
    } else {
      timeline.push({ ...slot.entry, commitSha: carried });
    }
  }
  return { timeline, nextCursor: cut ? encodeTimelineCursor({ ...cut, sha: carried }) : null };
}

/** A page of the timeline of a release's or promotion's workflow (all its runs), newest first. */
export async function workflowTimeline(
  client: Client,
  workflowId: string,
  page: PageRequest,
  latestSha: string | null,
): Promise<TimelinePage> {
  const read = reverseHistoryReader(client, workflowId, SERVER_PAGE_EVENTS);
  return timelinePage(read, page.cursor ? null : await latestRun(client, workflowId), page, latestSha);
}
