import { Forbidden, InvalidInput } from '../errors';
import { accountKey, addressKey } from '../rate-limit/fixed-window-limiter';
import { normalizeEmail } from '../users/user-repository';
import { AUTH_ACTIONS, authEntry, type RequestMeta } from './auth-audit';
import { appendAccountEntry } from './account-audit';
import { consumeEmailToken, issueEmailToken } from './email-tokens';
import type { IdentityDeps } from './identity-deps';
import { loginAccountKey } from './login-service';
import { hashPassword, verifyPassword } from './password-hash';
import { CHECK_YOUR_EMAIL } from './registration-service';
import { revokeUserFamilies } from './session-repository';
import { credentialsByEmail, credentialsById, markEmailVerified, setPasswordHash } from '../users/user-credentials';

/** Forgotten password by email link, and change with the current password; both end other sessions (SES-7). */
export function createPasswordService(deps: IdentityDeps) {
  const { db, audit, mailer, mails, limiter, backoff, config, policy, sessions } = deps;
  const rule = config.rates.reset;

  return {
    /** Same answer for every address; lookup, token and mail come after the response, so timing tells nothing (EN-1). */
    async forgot(email: string, meta: RequestMeta) {
      await limiter.hit(
        [
          { key: addressKey('reset', meta.clientAddress), limit: rule.perAddress },
          { key: accountKey('reset', normalizeEmail(email)), limit: rule.perAccount },
        ],
        config.rateWindowMs,
      );
      mailer.sendLater(async () => {
        const user = await credentialsByEmail(db, email);
        if (!user || user.disabled) return null;
        const token = await issueEmailToken(db, user.id, 'password_reset', config.passwordResetTtlMs);
        return mails.passwordReset(user.email, token, Math.round(config.passwordResetTtlMs / 60_000));
      });
      return CHECK_YOUR_EMAIL;
    },

    /**
     * Sets the new password and ends every session. It signs nobody in: the next login still asks for the second
     * factor, so a mailbox alone never bypasses MFA (PW-4). It also lifts the login lock of the account (EN-2).
     */
    async reset(token: string, password: string, meta: RequestMeta) {
      await limiter.hit(
        [{ key: addressKey('reset-confirm', meta.clientAddress), limit: rule.perAddress }],
        config.rateWindowMs,
      );
      const passwordHash = await hashPassword(password);
      const email = await db.transaction(async (trx) => {
        const userId = await consumeEmailToken(trx, token, 'password_reset');
        if (!userId) throw new InvalidInput('invalid or expired reset token');
        const user = await credentialsById(trx, userId);
        if (!user || user.disabled) throw new InvalidInput('invalid or expired reset token');
        policy.check(password, user.email);
        await setPasswordHash(trx, userId, passwordHash);
        await markEmailVerified(trx, userId);
        const ended = await revokeUserFamilies(trx, userId, 'password_reset');
        await audit.append(
          trx,
          authEntry({
            action: AUTH_ACTIONS.passwordReset,
            meta,
            userId,
            actor: user.email,
            details: { sessionsEnded: ended },
          }),
        );
        return user.email;
      });
      await backoff.clear(loginAccountKey(email));
      await limiter.reset(loginAccountKey(email));
      mailer.sendLater(mails.passwordChanged(email));
      return { reset: true };
    },

    /** Requires the current password (PW-3); returns a new access token because older ones stop working. */
    async change(
      userId: string,
      sessionId: string | undefined,
      input: { currentPassword: string; newPassword: string },
      meta: RequestMeta,
    ) {
      const user = await credentialsById(db, userId);
      if (!user || user.disabled) throw new Forbidden('this account is disabled');
      await limiter.hit(
        [{ key: accountKey('password-change', userId), limit: config.rates.login.perAccount }],
        config.rateWindowMs,
      );
      const ok = user.passwordHash ? await verifyPassword(user.passwordHash, input.currentPassword) : false;
      if (!ok) {
        await audit.appendStandalone(
          authEntry({
            action: AUTH_ACTIONS.passwordChange,
            meta,
            userId,
            actor: user.email,
            status: 'failure',
            details: { reason: 'wrong_current_password' },
          }),
        );
        throw new Forbidden('the current password is not correct');
      }
      policy.check(input.newPassword, user.email);
      const passwordHash = await hashPassword(input.newPassword);
      const result = await db.transaction(async (trx) => {
        await setPasswordHash(trx, userId, passwordHash);
        const ended = await revokeUserFamilies(trx, userId, 'password_change', sessionId);
        await appendAccountEntry(
          audit,
          trx,
          userId,
          authEntry({
            action: AUTH_ACTIONS.passwordChange,
            meta,
            userId,
            actor: user.email,
            details: { otherSessionsEnded: ended },
          }),
        );
        return sessionId ? sessions.reissue(trx, user, sessionId) : null;
      });
      mailer.sendLater(mails.passwordChanged(user.email));
      return result
        ? { changed: true, accessToken: result.accessToken, tokenType: 'Bearer' as const, expiresIn: result.expiresIn }
        : { changed: true };
    },
  };
}
