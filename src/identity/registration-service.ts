import { Conflict, Forbidden, InvalidInput } from '../errors';
import { accountKey, addressKey } from '../rate-limit/fixed-window-limiter';
import { insertUser, normalizeEmail } from '../users/user-repository';
import { AUTH_ACTIONS, authEntry, type RequestMeta } from './auth-audit';
import { consumeEmailToken, issueEmailToken } from './email-tokens';
import type { IdentityDeps } from './identity-deps';
import { hashPassword } from './password-hash';
import { credentialsByEmail, credentialsById, markEmailVerified } from './user-credentials';

/** Registration and resend answer the same whether or not the address has an account (EN-1). */
export const CHECK_YOUR_EMAIL = { status: 'check your email to continue' } as const;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

export function createRegistrationService(deps: IdentityDeps) {
  const { db, audit, mailer, mails, limiter, config, policy } = deps;
  const ttlHours = Math.round(config.emailVerificationTtlMs / 3_600_000);

  async function limit(scope: string, email: string, meta: RequestMeta, rule = config.rates.register) {
    await limiter.hit(
      [
        { key: addressKey(scope, meta.clientAddress), limit: rule.perAddress },
        { key: accountKey(scope, normalizeEmail(email)), limit: rule.perAccount },
      ],
      config.rateWindowMs,
    );
  }

  /** Unverified: a fresh link. Verified: a notice that the account exists. Unknown: nothing. */
  async function resendFor(userId: string, fromRegistration: boolean) {
    const user = await credentialsById(db, userId);
    if (!user || user.disabled) return;
    if (user.emailVerified) {
      if (fromRegistration) mailer.sendLater(mails.alreadyRegistered(user.email));
      return;
    }
    const token = await issueEmailToken(db, user.id, 'verify_email', config.emailVerificationTtlMs);
    mailer.sendLater(mails.verifyEmail(user.email, token, ttlHours));
  }

  return {
    async register(input: { email: string; password: string; name: string }, meta: RequestMeta) {
      if (!config.registrationOpen) throw new Forbidden('registration is closed on this deployment');
      if (!EMAIL.test(input.email)) throw new InvalidInput('email is not a valid address');
      policy.check(input.password, input.email);
      await limit('register', input.email, meta);
      // Hash first in every case, so a taken address answers in the same time as a new one.
      const passwordHash = await hashPassword(input.password);
      const existing = await credentialsByEmail(db, input.email);
      if (existing) {
        await resendFor(existing.id, true);
        return CHECK_YOUR_EMAIL;
      }
      try {
        const { user, token } = await db.transaction(async (trx) => {
          const created = await insertUser(trx, {
            email: input.email,
            name: input.name.trim(),
            passwordHash,
            verified: false,
          });
          await audit.append(
            trx,
            authEntry({
              action: AUTH_ACTIONS.register,
              meta,
              userId: created.id,
              actor: created.email,
              details: { method: 'password' },
            }),
          );
          return {
            user: created,
            token: await issueEmailToken(trx, created.id, 'verify_email', config.emailVerificationTtlMs),
          };
        });
        mailer.sendLater(mails.verifyEmail(user.email, token, ttlHours));
      } catch (err) {
        // A concurrent registration of the same address won the race: answer exactly as for any taken address.
        if (!(err instanceof Conflict)) throw err;
      }
      return CHECK_YOUR_EMAIL;
    },

    async resendVerification(email: string, meta: RequestMeta) {
      await limit('resend', email, meta, config.rates.reset);
      const user = await credentialsByEmail(db, email);
      if (user) await resendFor(user.id, false);
      return CHECK_YOUR_EMAIL;
    },

    async verifyEmail(token: string, meta: RequestMeta) {
      await limiter.hit(
        [{ key: addressKey('verify', meta.clientAddress), limit: config.rates.reset.perAddress }],
        config.rateWindowMs,
      );
      await db.transaction(async (trx) => {
        const userId = await consumeEmailToken(trx, token, 'verify_email');
        if (!userId) throw new InvalidInput('invalid or expired verification token');
        await markEmailVerified(trx, userId);
        const user = await credentialsById(trx, userId);
        await audit.append(
          trx,
          authEntry({ action: AUTH_ACTIONS.emailVerify, meta, userId, actor: user?.email ?? '' }),
        );
      });
      return { verified: true };
    },
  };
}
