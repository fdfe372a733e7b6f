import { Conflict } from '../errors';
import type { WebhookRequestRow } from './webhook-request-repository';

/** The spec's message for a request whose signed bytes were seen inside the replay window (409). */
export const DUPLICATE_REQUEST = 'duplicate webhook request';

/**
 * The 409 for the same bytes again (WH-3), whatever became of the first: nothing is done twice, and the body carries
 * the first request's outcome as recorded now (its status, the commit once there is one, its recorded answer, and the
 * status URL to follow while it is queued), so a retrying sender still learns what happened.
 */
export function duplicateRequest(row: WebhookRequestRow, statusUrl?: string): Conflict {
  return new Conflict(DUPLICATE_REQUEST, {
    requestId: row.id,
    status: row.status,
    commit: row.commit_sha ?? (row.result?.commit as string | null | undefined) ?? null,
    ...(statusUrl ? { statusUrl } : {}),
    result: row.result,
  });
}
