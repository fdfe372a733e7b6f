import { Conflict, Forbidden, InvalidInput } from '../errors';
import { accountKey, addressKey } from '../rate-limit/fixed-window-limiter';
import { canonicalEmail } from '../users/email-address';
import { insertUser, normalizeEmail } from '../users/user-repository';
import { AUTH_ACTIONS, authEntry, type RequestMeta } from './auth-audit';
import { consumeEmailToken, issueEmailToken } from './email-tokens';
import type { MailMessage } from '../mail/mailer';
import type { IdentityDeps } from './identity-deps';
import { hashPassword } from './password-hash';
import { credentialsByEmail, credentialsById, markEmailVerified } from '../users/user-credentials';

/**
 * Registration and resend answer the same, in the same time, whether or not the address has an account (EN-1):
 * everything that depends on the account runs after the answer (Mailer.sendLater).
 */
export const CHECK_YOUR_EMAIL = { status: 'check your email to continue' } as const;

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

  /** Unverified: a fresh link. Verified: a notice that the account exists (to a registration only). */
  async function resendMail(userId: string, fromRegistration: boolean): Promise<MailMessage | null> {
    const user = await credentialsById(db, userId);
    if (!user || user.disabled) return null;
    if (user.emailVerified) return fromRegistration ? mails.alreadyRegistered(user.email) : null;
    const token = await issueEmailToken(db, user.id, 'verify_email', config.emailVerificationTtlMs);
    return mails.verifyEmail(user.email, token, ttlHours);
  }

  /** The account, created unless the address is taken, and the mail that follows; runs after the answer. */
  async function registrationMail(
    input: { email: string; name: string; passwordHash: string },
    meta: RequestMeta,
  ): Promise<MailMessage | null> {
    const existing = await credentialsByEmail(db, input.email);
    if (existing) return resendMail(existing.id, true);
    try {
      return await db.transaction(async (trx) => {
        const created = await insertUser(trx, {
          email: input.email,
          name: input.name.trim(),
          passwordHash: input.passwordHash,
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
        const token = await issueEmailToken(trx, created.id, 'verify_email', config.emailVerificationTtlMs);
        return mails.verifyEmail(created.email, token, ttlHours);
      });
    } catch (err) {
      // A concurrent registration of the same address won the race: that one sends the mail.
      if (err instanceof Conflict) return null;
      throw err;
    }
  }

  return {
    /**
     * Checks what the request alone decides (address form, password policy, rate limits) and hashes the password
     * for every address alike; whether the address is taken is looked at only after the answer.
     */
    async register(input: { email: string; password: string; name: string }, meta: RequestMeta) {
      if (!config.registrationOpen) throw new Forbidden('registration is closed on this deployment');
      const email = canonicalEmail(input.email);
      policy.check(input.password, email);
      await limit('register', email, meta);
      const passwordHash = await hashPassword(input.password);
      mailer.sendLater(() => registrationMail({ email, name: input.name, passwordHash }, meta));
      return CHECK_YOUR_EMAIL;
    },

    async resendVerification(email: string, meta: RequestMeta) {
      await limit('resend', email, meta, config.rates.reset);
      mailer.sendLater(async () => {
        const user = await credentialsByEmail(db, email);
        return user ? resendMail(user.id, false) : null;
      });
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
