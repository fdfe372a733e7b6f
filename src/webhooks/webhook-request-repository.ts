import { isUniqueViolation, type Queryable } from '../db/knex';
import { Conflict } from '../errors';

export type WebhookKind = 'image-update' | 'cdcontroller';

export interface WebhookRequestRow {
  id: string;
  kind: WebhookKind;
  request_hash: string;
  organization_id: string;
  project_id: string | null;
  status: 'received' | 'committed' | 'failed';
  commit_sha: string | null;
  result: Record<string, unknown> | null;
  created_at: Date;
  expires_at: Date;
}

/**
 * Records a verified request under the hash of its signed bytes. The unique constraint decides replays: of two
 * identical requests, concurrent or not, exactly one inserts; the other gets 409.
 */
export async function recordRequest(
  db: Queryable,
  row: Pick<WebhookRequestRow, 'kind' | 'request_hash' | 'organization_id' | 'project_id'> & { expiresAt: Date },
): Promise<string> {
  try {
    const [inserted] = (await db('webhook_requests')
      .insert({
        kind: row.kind,
        request_hash: row.request_hash,
        organization_id: row.organization_id,
        project_id: row.project_id,
        status: 'received',
        expires_at: row.expiresAt,
      })
      .returning('id')) as { id: string }[];
    return inserted!.id;
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict('duplicate webhook request');
    throw err;
  }
}

export async function finishRequest(
  db: Queryable,
  id: string,
  outcome: { status: WebhookRequestRow['status']; commitSha?: string | null; result: Record<string, unknown> },
): Promise<void> {
  await db('webhook_requests')
    .where({ id })
    .update({ status: outcome.status, commit_sha: outcome.commitSha ?? null, result: JSON.stringify(outcome.result) });
}

/** Forgets a request that failed inside the platform, so the sender's retry is not taken for a replay. */
export async function forgetRequest(db: Queryable, id: string): Promise<void> {
  await db('webhook_requests').where({ id }).delete();
}

export async function findRequest(db: Queryable, kind: WebhookKind, id: string): Promise<WebhookRequestRow | null> {
  return ((await db('webhook_requests').where({ id, kind }).first()) as WebhookRequestRow | undefined) ?? null;
}

/** Drops requests past their keep time (always past the replay window: their timestamps are refused anyway). */
export async function purgeExpiredRequests(db: Queryable, now: Date): Promise<number> {
  return db('webhook_requests').where('expires_at', '<', now).delete();
}
