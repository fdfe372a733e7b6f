import { isGrpcServiceError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { InvalidInput } from '../errors';

export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Payloads of a history event, decoded; one that cannot be read is null (a history is shown, never trusted). */
export function decodePayloads(payloads: Payload[] | null | undefined): unknown[] {
  return (payloads ?? []).map((p) => {
    try {
      return defaultPayloadConverter.fromPayload(p);
    } catch {
      return null;
    }
  });
}
const EventType = temporal.api.enums.v1.EventType;

/** Where a reverse read stands: a run of the workflow and the server's token for its next (older) page. */
export interface HistoryPosition {
  runId: string;
  /** Temporal's own page token; null for the newest page of the run. */
  token: Uint8Array | null;
}

/** One page of a run's events, newest first, and the position of the page after it (null at the first run's start). */
export interface ReversePage {
  at: HistoryPosition;
  events: HistoryEvent[];
  next: HistoryPosition | null;
}

export type ReverseReader = (at: HistoryPosition) => Promise<ReversePage>;

/** gRPC status codes the server answers for a token or run id that is not this workflow's. */
const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;

/**
 * Reads a workflow's history newest first, one bounded page per call (GetWorkflowExecutionHistoryReverse), and walks
 * back through the runs a continue-as-new chained: at a run's first event, the next page is the run it continued.
 * Positions come back to us in cursors, so a token or run id the server refuses is the caller's bad cursor.
 */
export function reverseHistoryReader(client: Client, workflowId: string, pageEvents: number): ReverseReader {
  return async (at) => {
    let events: HistoryEvent[];
    let token: Uint8Array | null | undefined;
    try {
      const res = await client.workflowService.getWorkflowExecutionHistoryReverse({
        namespace: client.options.namespace,
        execution: { workflowId, runId: at.runId },
        maximumPageSize: pageEvents,
        nextPageToken: at.token ?? undefined,
      });
      events = res.history?.events ?? [];
      token = res.nextPageToken;
    } catch (err) {
      if (isGrpcServiceError(err) && [INVALID_ARGUMENT, NOT_FOUND].includes(err.code ?? -1)) {
        throw new InvalidInput('invalid cursor');
      }
      throw err;
    }
    if (token && token.length > 0) return { at, events, next: { runId: at.runId, token } };
    const first = events.at(-1);
    const continued =
      first?.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED
        ? first.workflowExecutionStartedEventAttributes?.continuedExecutionRunId
        : null;
    return { at, events, next: continued ? { runId: continued, token: null } : null };
  };
}

/** The newest run of the workflow, or null when the server has none (not started yet, or past retention). */
export async function latestRun(client: Client, workflowId: string): Promise<string | null> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).runId;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}
