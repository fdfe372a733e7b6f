import type { Queryable } from '../db/knex';
import { hashToken, newSecretToken } from './secret-tokens';

export type EmailTokenPurpose = 'verify_email' | 'password_reset';

/**
 * Single-use, short-lived tokens sent by email (ASVS 6.4.1). Issuing a new one voids the user's earlier unused ones
 * of the same purpose, so only the latest link works.
 */
export async function issueEmailToken(
  db: Queryable,
  userId: string,
  purpose: EmailTokenPurpose,
  ttlMs: number,
): Promise<string> {
  await db('email_tokens').where({ user_id: userId, purpose }).whereNull('used_at').update({ used_at: db.fn.now() });
  const token = newSecretToken();
  await db('email_tokens').insert({
    user_id: userId,
    purpose,
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + ttlMs),
  });
  return token;
}

/** Atomically marks the token used; returns its user, or null when unknown, used, expired or of another purpose. */
export async function consumeEmailToken(
  db: Queryable,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string | null> {
  const rows = (await db('email_tokens')
    .where({ token_hash: hashToken(token), purpose })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning(['user_id'])) as { user_id: string }[];
  return rows[0]?.user_id ?? null;
}
