import { appendAccountEntry } from '../account-audit';
import type { AuditService } from '../../audit/audit-service';
import type { Db, Tx } from '../../db/knex';
import { Conflict, Forbidden, InvalidInput, NotFound } from '../../errors';
import { accountKey } from '../../rate-limit/fixed-window-limiter';
import { AUTH_ACTIONS, authEntry, type AuthAction, type RequestMeta } from '../auth-audit';
import type { IdentityDeps } from '../identity-deps';
import { revokeUserFamilies } from '../session-repository';
import { credentialsById, type UserCredentials } from '../../users/user-credentials';
import {
  checkCodeOrRecovery,
  recordFactorFailure,
  recoveryCodeUsedEntry,
  refusedFactorMessage,
  type FactorCheck,
} from './mfa-factors';
import {
  deleteMfa,
  enableTotp,
  findMfa,
  replaceRecoveryCodes,
  savePendingSecret,
  unusedRecoveryCodeCount,
} from './mfa-repository';
import { generateRecoveryCodes } from './recovery-codes';
import { enrollment, matchingStep, newTotpSecret } from './totp';

/** The MFA states of the spec that describe an account at rest ("required" is the pending login challenge). */
export type MfaState = 'not-configured' | 'verified' | 'recovery-needed';

/** Who resets another user's MFA: an organization owner (through the API) or the instance operator (CLI). */
export interface ResetActor {
  actorType: 'user' | 'system';
  actor: string;
  userId: string | null;
  organizationId: string | null;
}

const REAUTH = 'reauthentication';

/** Enrolment, disabling and recovery-code regeneration for the signed-in user, plus the owner/operator reset. */
export function createMfaSettings(deps: IdentityDeps) {
  const { db, audit, box, mailer, mails, limiter, config } = deps;

  async function account(userId: string): Promise<UserCredentials> {
    const user = await credentialsById(db, userId);
    if (!user || user.disabled) throw new Forbidden('this account is disabled');
    return user;
  }

  /** Every code checked here counts against the account's MFA guess cap, shared with the login step (MFA-3). */
  const countGuess = (userId: string) =>
    limiter.hit([{ key: accountKey('mfa', userId), limit: config.rates.mfa.perAccount }], config.rateWindowMs);

  /**
   * Sensitive MFA changes (disable, regenerate) re-authenticate with a second factor of an account that has MFA on,
   * under the same per-account guess cap as login.
   */
  async function reauthenticated(userId: string, input: { code?: string; recoveryCode?: string }, meta: RequestMeta) {
    const user = await account(userId);
    if (!(await findMfa(db, userId))?.enabled) throw new Conflict('two-factor authentication is not enabled');
    await countGuess(user.id);
    const proof = await checkCodeOrRecovery(db, box, user.id, input);
    if (!proof.ok) {
      await recordFactorFailure(deps, user, proof, meta, { purpose: REAUTH });
      throw new Forbidden(refusedFactorMessage(proof));
    }
    return { user, proof };
  }

  /**
   * An MFA change commits with the end of the user's other sessions (SES-7), its audit entry and, when a recovery
   * code was the proof, the entry of that code; the user is mailed afterwards (SES-8).
   */
  async function commitChange(
    user: UserCredentials,
    change: { action: AuthAction; sessionId: string | undefined; proof?: FactorCheck & { ok: true } },
    meta: RequestMeta,
    apply: (trx: Tx) => Promise<void>,
  ): Promise<void> {
    const { action, sessionId, proof } = change;
    await db.transaction(async (trx) => {
      await apply(trx);
      const ended = await revokeUserFamilies(trx, user.id, 'mfa_change', sessionId);
      await appendAccountEntry(
        audit,
        trx,
        user.id,
        authEntry({
          action,
          meta,
          userId: user.id,
          actor: user.email,
          details: { ...(proof ? { factor: proof.factor } : {}), otherSessionsEnded: ended },
        }),
      );
      if (proof?.factor === 'recovery_code') {
        await audit.append(trx, recoveryCodeUsedEntry(user, proof.recoveryCodesLeft ?? 0, meta, { purpose: REAUTH }));
      }
    });
  }

  return {
    async state(userId: string) {
      const mfa = await findMfa(db, userId);
      const remaining = mfa?.enabled ? await unusedRecoveryCodeCount(db, userId) : 0;
      const state: MfaState = !mfa?.enabled ? 'not-configured' : remaining === 0 ? 'recovery-needed' : 'verified';
      return { state, totpEnabled: mfa?.enabled ?? false, recoveryCodesRemaining: remaining };
    },

    /** Step 1 of the spec's setup order: a new seed (kept pending, sealed) with its otpauth URI and QR code. */
    async setup(userId: string) {
      const user = await account(userId);
      if ((await findMfa(db, userId))?.enabled) throw new Conflict('two-factor authentication is already enabled');
      const secret = newTotpSecret();
      await savePendingSecret(db, userId, box.seal(secret, userId));
      return enrollment(secret, user.email);
    },

    /** Step 2: the first code proves the device has the seed; the 8 recovery codes are shown this once. */
    async enable(userId: string, code: string, sessionId: string | undefined, meta: RequestMeta) {
      const user = await account(userId);
      await countGuess(userId);
      const mfa = await findMfa(db, userId);
      if (mfa?.enabled) throw new Conflict('two-factor authentication is already enabled');
      if (!mfa?.pendingSecret) throw new InvalidInput('start with POST /api/v1/auth/mfa/totp/setup');
      const step = await matchingStep(box.open(mfa.pendingSecret, userId), code);
      if (step === null) throw new InvalidInput('the code does not match; check the device clock and try again');
      const codes = await generateRecoveryCodes();
      await commitChange(user, { action: AUTH_ACTIONS.mfaEnable, sessionId }, meta, async (trx) => {
        if (!(await enableTotp(trx, userId, step))) throw new Conflict('two-factor authentication is already enabled');
        await replaceRecoveryCodes(trx, userId, codes);
      });
      mailer.sendLater(mails.mfaEnabled(user.email));
      return { enabled: true, recoveryCodes: codes.map((c) => c.code) };
    },

    async disable(
      userId: string,
      input: { code?: string; recoveryCode?: string },
      sessionId: string | undefined,
      meta: RequestMeta,
    ) {
      const { user, proof } = await reauthenticated(userId, input, meta);
      await commitChange(user, { action: AUTH_ACTIONS.mfaDisable, sessionId, proof }, meta, async (trx) => {
        await deleteMfa(trx, userId);
      });
      mailer.sendLater(mails.mfaDisabled(user.email));
      return { enabled: false };
    },

    async regenerateRecoveryCodes(
      userId: string,
      input: { code?: string; recoveryCode?: string },
      sessionId: string | undefined,
      meta: RequestMeta,
    ) {
      const { user, proof } = await reauthenticated(userId, input, meta);
      const codes = await generateRecoveryCodes();
      const action = AUTH_ACTIONS.mfaRecoveryCodesRegenerate;
      await commitChange(user, { action, sessionId, proof }, meta, async (trx) => {
        await replaceRecoveryCodes(trx, userId, codes);
      });
      mailer.sendLater(mails.recoveryCodesRegenerated(user.email));
      return { recoveryCodes: codes.map((c) => c.code) };
    },

    async reset(targetUserId: string, by: ResetActor, meta: RequestMeta) {
      const email = await resetUserMfa({ db, audit }, targetUserId, by, meta);
      mailer.sendLater(mails.mfaReset(email, by.actor));
      return { userId: targetUserId, mfa: 'not-configured' as const };
    },
  };
}

export type MfaSettings = ReturnType<typeof createMfaSettings>;

/**
 * The way out of "recovery-needed": MFA removed and every session of the user ended, so the next login is
 * password-only and the user enrols again. Audited in the chain of every organization the user belongs to. Shared by the
 * owner route and the operator CLI; returns the user's email for the notice.
 */
export async function resetUserMfa(
  deps: { db: Db; audit: AuditService },
  targetUserId: string,
  by: ResetActor,
  meta: RequestMeta,
): Promise<string> {
  const target = await credentialsById(deps.db, targetUserId);
  if (!target) throw new NotFound('user not found');
  await deps.db.transaction(async (trx) => {
    if (!(await deleteMfa(trx, targetUserId))) {
      throw new Conflict('two-factor authentication is not enabled for this user');
    }
    const ended = await revokeUserFamilies(trx, targetUserId, 'mfa_reset');
    // Every organization the user belongs to learns of it in its own chain (the acting owner's included).
    await appendAccountEntry(
      deps.audit,
      trx,
      targetUserId,
      {
        ...authEntry({
          action: AUTH_ACTIONS.mfaReset,
          meta,
          userId: by.userId,
          actor: by.actor,
          actorType: by.actorType,
          details: { targetUserId, targetEmail: target.email, sessionsEnded: ended },
        }),
        resourceId: targetUserId,
      },
      by.organizationId,
    );
  });
  return target.email;
}
