import type { Client } from '@temporalio/client';
import type { AuditService } from '../audit/audit-service';
import type { AuditActor } from '../audit/types';
import type { OrgCaller } from '../iam/caller';

/**
 * The kit of rows a workflow owns (releases, promotions, invitations; DESIGN.md "a row that a workflow owns and the
 * workflow's start are one unit"): who the workflow's own steps act as, who created a row, the reconciler's pass
 * over unstarted rows, and the row's history beside its audit entries.
 */

/** Rows older than this without a recorded start are the reconciler's (younger ones may still be starting). */
const START_GRACE_MS = 5_000;

/** The audit actor of a workflow's own steps (a timeout, an expiry, an evaluation), named after the workflow. */
export function workflowActor(workflow: string): AuditActor {
  return { userId: null, actorType: 'system', actor: workflow, requestId: null };
}

/** The creator of a row as far as the row knows them: their user id is what self-approval is checked against. */
export function creatorOf(row: { created_by: string | null; created_by_actor: string }): AuditActor {
  const actorType = row.created_by === null ? ('service_account' as const) : ('user' as const);
  return { userId: row.created_by, actorType, actor: row.created_by_actor, requestId: null };
}

/**
 * Starts the workflows that rows are missing (a crash between the row's commit and the start): `unstarted` lists rows
 * created before the instant it is given; `start` is the same idempotent start the request uses. Answers how many.
 */
export async function reconcileRows<Row>(
  unstarted: (before: Date, limit: number) => Promise<Row[]>,
  start: (row: Row) => Promise<void>,
  limit: number,
  graceMs = START_GRACE_MS,
): Promise<number> {
  const rows = await unstarted(new Date(Date.now() - graceMs), limit);
  for (const row of rows) await start(row);
  return rows.length;
}

/**
 * A page of the workflow's history as a timeline of steps (newest first, with the cursor of the next page), beside the
 * audit entries of its row (newest 200).
 */
export async function rowHistory<Page extends object>(
  deps: { temporal: Client; audit: AuditService },
  caller: OrgCaller,
  row: { id: string; workflow_id: string },
  resourceType: string,
  timeline: (client: Client, workflowId: string) => Promise<Page>,
) {
  const page = await timeline(deps.temporal, row.workflow_id);
  const entries = await deps.audit.list({
    organizationId: caller.organizationId,
    resourceType,
    resourceId: row.id,
    limit: 200,
  });
  return { workflowId: row.workflow_id, ...page, audit: entries.items };
}
