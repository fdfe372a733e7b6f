import type { Queryable } from '../../db/knex';
import type { GeneratedRecoveryCode } from './recovery-codes';

export interface MfaRecord {
  /** Sealed seed of the enabled authenticator; null while MFA is off. */
  totpSecret: string | null;
  pendingSecret: string | null;
  pendingCreatedAt: Date | null;
  enabled: boolean;
  lastUsedStep: number | null;
}

interface Row {
  totp_secret: string | null;
  pending_secret: string | null;
  pending_created_at: Date | null;
  enabled_at: Date | null;
  last_used_step: string | null;
}

export async function findMfa(db: Queryable, userId: string): Promise<MfaRecord | null> {
  const row = (await db('user_mfa')
    .where({ user_id: userId })
    .first('totp_secret', 'pending_secret', 'pending_created_at', 'enabled_at', 'last_used_step')) as Row | undefined;
  if (!row) return null;
  return {
    totpSecret: row.totp_secret,
    pendingSecret: row.pending_secret,
    pendingCreatedAt: row.pending_created_at,
    enabled: row.enabled_at !== null && row.totp_secret !== null,
    lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
  };
}

export async function mfaEnabled(db: Queryable, userId: string): Promise<boolean> {
  return (await findMfa(db, userId))?.enabled ?? false;
}

export async function savePendingSecret(db: Queryable, userId: string, sealed: string): Promise<void> {
  await db.raw(
    `INSERT INTO user_mfa (user_id, pending_secret, pending_created_at, updated_at) VALUES (?, ?, now(), now())
     ON CONFLICT (user_id) DO UPDATE SET pending_secret = EXCLUDED.pending_secret,
       pending_created_at = now(), updated_at = now()`,
    [userId, sealed],
  );
}

/** Promotes the pending seed; the confirming code's step counts as used. False if it was enabled meanwhile. */
export async function enableTotp(db: Queryable, userId: string, step: number): Promise<boolean> {
  const n = await db('user_mfa')
    .where({ user_id: userId })
    .whereNull('enabled_at')
    .whereNotNull('pending_secret')
    .update({
      totp_secret: db.ref('pending_secret'),
      pending_secret: null,
      pending_created_at: null,
      enabled_at: db.fn.now(),
      last_used_step: step,
      updated_at: db.fn.now(),
    });
  return n === 1;
}

/**
 * Records a TOTP step as used, atomically: succeeds only for a step later than any used before, so a code (or any
 * code of an earlier or equal step) is accepted once (MFA-2).
 */
export async function claimTotpStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const n = await db('user_mfa')
    .where({ user_id: userId })
    .whereNotNull('enabled_at')
    .where((q) => void q.whereNull('last_used_step').orWhere('last_used_step', '<', step))
    .update({ last_used_step: step, updated_at: db.fn.now() });
  return n === 1;
}

export async function deleteMfa(db: Queryable, userId: string): Promise<boolean> {
  await db('mfa_recovery_codes').where({ user_id: userId }).delete();
  const n = await db('user_mfa').where({ user_id: userId }).whereNotNull('enabled_at').delete();
  await db('user_mfa').where({ user_id: userId }).delete();
  return n > 0;
}

/** Regeneration replaces the whole set: the old codes stop working in the same transaction (MFA-4). */
export async function replaceRecoveryCodes(
  db: Queryable,
  userId: string,
  codes: GeneratedRecoveryCode[],
): Promise<void> {
  await db('mfa_recovery_codes').where({ user_id: userId }).delete();
  await db('mfa_recovery_codes').insert(codes.map((c) => ({ user_id: userId, lookup: c.lookup, code_hash: c.hash })));
}

export async function findUnusedRecoveryCode(
  db: Queryable,
  userId: string,
  lookup: string,
): Promise<{ id: string; codeHash: string } | null> {
  const row = (await db('mfa_recovery_codes')
    .where({ user_id: userId, lookup })
    .whereNull('used_at')
    .first('id', 'code_hash')) as { id: string; code_hash: string } | undefined;
  return row ? { id: row.id, codeHash: row.code_hash } : null;
}

/** Single use under concurrency: only one caller flips used_at. */
export async function useRecoveryCode(db: Queryable, id: string): Promise<boolean> {
  const n = await db('mfa_recovery_codes').where({ id }).whereNull('used_at').update({ used_at: db.fn.now() });
  return n === 1;
}

export async function unusedRecoveryCodeCount(db: Queryable, userId: string): Promise<number> {
  const row = (await db('mfa_recovery_codes')
    .where({ user_id: userId })
    .whereNull('used_at')
    .count<{ n: string }[]>('* as n')
    .first()) as { n: string } | undefined;
  return Number(row?.n ?? 0);
}
