import type { AuditEntryInput } from '../../audit/types';
import type { Queryable } from '../../db/knex';
import { AUTH_ACTIONS, authEntry, type RequestMeta } from '../auth-audit';
import type { IdentityDeps } from '../identity-deps';
import type { UserCredentials } from '../../users/user-credentials';
import {
  claimTotpStep,
  findMfa,
  findUnusedRecoveryCode,
  unusedRecoveryCodeCount,
  useRecoveryCode,
} from './mfa-repository';
import { parseRecoveryCode, recoverySecretMatches } from './recovery-codes';
import type { SecretBox } from './secret-box';
import { matchingStep } from './totp';

export type Factor = 'totp' | 'recovery_code' | 'email_code';

export type FactorCheck =
  | { ok: true; factor: Factor; recoveryCodesLeft?: number }
  | { ok: false; factor: Factor; reason: 'invalid' | 'reused' };

/**
 * What a refused factor answers. A TOTP code of a step already used (a sign-in in the same 30 s window as enrolment
 * or as the previous sign-in) says to wait for the next code, and nothing more: that step can never be used again, so
 * naming it gives a guesser nothing (MFA-2).
 */
export function refusedFactorMessage(result: FactorCheck & { ok: false }): string {
  if (result.factor === 'totp' && result.reason === 'reused') {
    return 'this code was already used: wait for the next code from your authenticator app';
  }
  return 'invalid code';
}

/** TOTP: the code must match the current or previous step, and that step must not have been used (MFA-1, MFA-2). */
export async function checkTotp(db: Queryable, box: SecretBox, userId: string, code: string): Promise<FactorCheck> {
  const mfa = await findMfa(db, userId);
  if (!mfa?.enabled || !mfa.totpSecret) return { ok: false, factor: 'totp', reason: 'invalid' };
  const step = await matchingStep(box.open(mfa.totpSecret, userId), code);
  if (step === null) return { ok: false, factor: 'totp', reason: 'invalid' };
  if (!(await claimTotpStep(db, userId, step))) return { ok: false, factor: 'totp', reason: 'reused' };
  return { ok: true, factor: 'totp' };
}

/** Recovery code: one Argon2id check found through the lookup group, then an atomic single use (MFA-4). */
export async function checkRecoveryCode(db: Queryable, userId: string, input: string): Promise<FactorCheck> {
  const parsed = parseRecoveryCode(input);
  const row = parsed ? await findUnusedRecoveryCode(db, userId, parsed.lookup) : null;
  if (!parsed || !row || !(await recoverySecretMatches(row.codeHash, parsed.secret))) {
    return { ok: false, factor: 'recovery_code', reason: 'invalid' };
  }
  if (!(await useRecoveryCode(db, row.id))) return { ok: false, factor: 'recovery_code', reason: 'reused' };
  return { ok: true, factor: 'recovery_code', recoveryCodesLeft: await unusedRecoveryCodeCount(db, userId) };
}

/** For re-authenticating a sensitive MFA change with either an authenticator code or a recovery code. */
export function checkCodeOrRecovery(
  db: Queryable,
  box: SecretBox,
  userId: string,
  input: { code?: string; recoveryCode?: string },
): Promise<FactorCheck> {
  if (input.code !== undefined) return checkTotp(db, box, userId, input.code);
  return checkRecoveryCode(db, userId, input.recoveryCode ?? '');
}

/**
 * A refused second factor, at sign-in or when re-authenticating an MFA change: audited as a failed attempt, and a
 * replayed code as a blocked reuse that the user is also mailed about (MFA-2, EN-3).
 */
export async function recordFactorFailure(
  deps: Pick<IdentityDeps, 'audit' | 'mailer' | 'mails'>,
  user: UserCredentials,
  result: FactorCheck & { ok: false },
  meta: RequestMeta,
  details: Record<string, unknown> = {},
): Promise<void> {
  const reused = result.reason === 'reused';
  await deps.audit.appendStandalone(
    authEntry({
      action: reused ? AUTH_ACTIONS.mfaCodeReuse : AUTH_ACTIONS.login,
      meta,
      userId: user.id,
      actor: user.email,
      status: reused ? 'blocked' : 'failure',
      details: { factor: result.factor, reason: result.reason, ...details },
    }),
  );
  if (reused && result.factor === 'totp') deps.mailer.sendLater(deps.mails.codeReused(user.email));
}

/** The audit entry of a spent recovery code, written in the transaction of whatever the code was spent on (MFA-4). */
export function recoveryCodeUsedEntry(
  user: UserCredentials,
  remaining: number,
  meta: RequestMeta,
  details: Record<string, unknown> = {},
): AuditEntryInput {
  return authEntry({
    action: AUTH_ACTIONS.mfaRecoveryCodeUsed,
    meta,
    userId: user.id,
    actor: user.email,
    details: { remaining, ...details },
  });
}
