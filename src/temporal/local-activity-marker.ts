import type { Payload } from '@temporalio/common';
import { decodePayloads, type HistoryEvent } from './history-reader';

/** What a local activity leaves in a workflow's history: a marker, not scheduled/started/completed events. */
export interface LocalActivityMarker {
  activityType: string;
  /** When it completed (ms since the epoch, the worker's clock), when the marker records it. */
  completedMs: number | null;
  /** Its result, decoded (null when there is none or it cannot be read). */
  result: unknown;
}

const MARKER_NAME = 'core_local_activity';

/**
 * The local activity a `MarkerRecorded` event records, or null for any other event. The SDK's marker holds the
 * activity's type and completion time in its `data` detail and its result in `result`; it holds no input.
 */
export function localActivityMarker(event: HistoryEvent): LocalActivityMarker | null {
  const attrs = event.markerRecordedEventAttributes;
  if (attrs?.markerName !== MARKER_NAME) return null;
  const data = decodePayloads(attrs.details?.data?.payloads as Payload[])[0] as {
    activity_type?: string;
    complete_time?: { seconds?: number; nanos?: number } | null;
  } | null;
  const done = data?.complete_time;
  return {
    activityType: data?.activity_type ?? '',
    completedMs: done ? Number(done.seconds ?? 0) * 1000 + (done.nanos ?? 0) / 1e6 : null,
    result: decodePayloads(attrs.details?.result?.payloads as Payload[])[0] ?? null,
  };
}
