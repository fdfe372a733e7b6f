import type { Queryable } from '../../db/knex';
import { hashToken, newSecretToken } from '../secret-tokens';

/**
 * The state "required" of the spec: the password (or OAuth) step passed and a second factor is due. The challenge
 * token is opaque and lives only here, so it can never act as an API credential (MFA-6).
 */
export interface MfaChallenge {
  id: string;
  userId: string;
  authMethod: string;
  returnTo: string | null;
  attempts: number;
  emailCodeHash: string | null;
  emailCodeLive: boolean;
}

interface Row {
  id: string;
  user_id: string;
  auth_method: string;
  return_to: string | null;
  attempts: number;
  email_code_hash: string | null;
  email_code_live: boolean;
}

export async function createChallenge(
  db: Queryable,
  input: { userId: string; authMethod: string; returnTo: string | null; ttlMs: number },
): Promise<string> {
  const token = newSecretToken();
  await db('mfa_challenges').insert({
    user_id: input.userId,
    token_hash: hashToken(token),
    auth_method: input.authMethod,
    return_to: input.returnTo,
    expires_at: db.raw('now() + make_interval(secs => ?)', [input.ttlMs / 1000]),
  });
  return token;
}

/** The live challenge of a token: not expired, not consumed. */
export async function findChallenge(db: Queryable, token: string): Promise<MfaChallenge | null> {
  const row = (await db('mfa_challenges')
    .where({ token_hash: hashToken(token) })
    .whereNull('consumed_at')
    .where('expires_at', '>', db.fn.now())
    .first(
      'id',
      'user_id',
      'auth_method',
      'return_to',
      'attempts',
      'email_code_hash',
      db.raw('coalesce(email_code_expires_at > now(), false) as email_code_live'),
    )) as Row | undefined;
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    authMethod: row.auth_method,
    returnTo: row.return_to,
    attempts: row.attempts,
    emailCodeHash: row.email_code_hash,
    emailCodeLive: row.email_code_live,
  };
}

/**
 * Counts one guess before it is checked (MFA-3). Returns false once the cap is reached, and then kills the challenge:
 * the user has to sign in again, which passes the password step and its limits once more.
 */
export async function countAttempt(db: Queryable, id: string, max: number): Promise<boolean> {
  const n = await db('mfa_challenges')
    .where({ id })
    .whereNull('consumed_at')
    .where('attempts', '<', max)
    .increment('attempts', 1);
  if (n === 1) return true;
  await db('mfa_challenges').where({ id }).whereNull('consumed_at').update({ consumed_at: db.fn.now() });
  return false;
}

export async function consumeChallenge(db: Queryable, id: string): Promise<boolean> {
  const n = await db('mfa_challenges').where({ id }).whereNull('consumed_at').update({ consumed_at: db.fn.now() });
  return n === 1;
}

/** A resend overwrites the previous code (MFA-5). */
export async function setEmailCode(db: Queryable, id: string, codeHash: string, ttlMs: number): Promise<void> {
  await db('mfa_challenges')
    .where({ id })
    .update({
      email_code_hash: codeHash,
      email_code_expires_at: db.raw('now() + make_interval(secs => ?)', [ttlMs / 1000]),
    });
}
