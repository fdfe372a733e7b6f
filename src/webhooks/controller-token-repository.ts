import type { Queryable } from '../db/knex';

/** Stores the organization's new token hash; the one it replaces verifies until `previousUntil`. */
export async function replaceToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
  previousUntil: Date,
): Promise<void> {
  await db.raw(
    `INSERT INTO cdcontroller_tokens (organization_id, token_hash) VALUES (?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET token_hash = excluded.token_hash,
       previous_token_hash = cdcontroller_tokens.token_hash, previous_expires_at = ?, created_at = now()`,
    [organizationId, tokenHash, previousUntil],
  );
}

/** The organization a token hash belongs to (current, or rotated-out within its overlap). */
export async function organizationOfToken(db: Queryable, tokenHash: string, now: Date): Promise<string | null> {
  const row = (await db('cdcontroller_tokens')
    .where({ token_hash: tokenHash })
    .orWhere((q) => q.where({ previous_token_hash: tokenHash }).andWhere('previous_expires_at', '>', now))
    .first('organization_id')) as { organization_id: string } | undefined;
  return row?.organization_id ?? null;
}
