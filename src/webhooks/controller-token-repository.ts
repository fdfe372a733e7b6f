import type { Queryable } from '../db/knex';

/**
 * Stores the organization's new token hash; the one it replaces verifies until `previousUntil`. Answers when the
 * previous token stops working: null for the organization's first token (there is no previous one).
 */
export async function replaceToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
  previousUntil: Date,
): Promise<Date | null> {
  const result = (await db.raw(
    `INSERT INTO cdcontroller_tokens (organization_id, token_hash) VALUES (?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET token_hash = excluded.token_hash,
       previous_token_hash = cdcontroller_tokens.token_hash, previous_expires_at = ?, created_at = now()
     RETURNING previous_expires_at`,
    [organizationId, tokenHash, previousUntil],
  )) as { rows: { previous_expires_at: Date | null }[] };
  return result.rows[0]?.previous_expires_at ?? null;
}

/** Whether the organization has a controller token, since when, and until when its previous one still works. */
export async function tokenState(db: Queryable, organizationId: string, now: Date) {
  const row = (await db('cdcontroller_tokens')
    .where({ organization_id: organizationId })
    .first('created_at', 'previous_expires_at')) as { created_at: Date; previous_expires_at: Date | null } | undefined;
  const previous = row?.previous_expires_at && row.previous_expires_at > now ? row.previous_expires_at : null;
  return {
    exists: row !== undefined,
    createdAt: row ? row.created_at.toISOString() : null,
    previousTokenValidUntil: previous ? previous.toISOString() : null,
  };
}

/** The organization a token hash belongs to (current, or rotated-out within its overlap). */
export async function organizationOfToken(db: Queryable, tokenHash: string, now: Date): Promise<string | null> {
  const row = (await db('cdcontroller_tokens')
    .where({ token_hash: tokenHash })
    .orWhere((q) => q.where({ previous_token_hash: tokenHash }).andWhere('previous_expires_at', '>', now))
    .first('organization_id')) as { organization_id: string } | undefined;
  return row?.organization_id ?? null;
}
