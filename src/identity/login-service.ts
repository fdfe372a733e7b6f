import { Forbidden, Unauthorized } from '../errors';
import { accountKey, addressKey } from '../rate-limit/fixed-window-limiter';
import { normalizeEmail } from '../users/user-repository';
import { AUTH_ACTIONS, authEntry, type RequestMeta } from './auth-audit';
import type { IdentityDeps } from './identity-deps';
import type { MfaLogin, MfaRequired } from './mfa/mfa-login';
import { mfaEnabled } from './mfa/mfa-repository';
import { burnPasswordCheck, verifyPassword } from './password-hash';
import type { IssuedSession } from './session-service';
import { credentialsByEmail } from '../users/user-credentials';

export type LoginOutcome = { kind: 'session'; session: IssuedSession } | { kind: 'mfa'; challenge: MfaRequired };

/** One answer for an unknown email and a wrong password: same status, same body, same KDF cost (EN-1). */
const INVALID = 'invalid email or password';

/** The login back-off key of an email, shared with password reset (which clears it). */
export function loginAccountKey(email: string): string {
  return accountKey('login', normalizeEmail(email));
}

export function createLoginService(deps: IdentityDeps, mfa: MfaLogin) {
  const { db, audit, limiter, backoff, config, sessions } = deps;
  return {
    async login(email: string, password: string, meta: RequestMeta): Promise<LoginOutcome> {
      const acctKey = loginAccountKey(email);
      // Limits and back-off come before the KDF, so the KDF cannot be used to exhaust the server (PW-1).
      await limiter.hit(
        [
          { key: addressKey('login', meta.clientAddress), limit: config.rates.login.perAddress },
          { key: acctKey, limit: config.rates.login.perAccount },
        ],
        config.rateWindowMs,
      );
      await backoff.check(acctKey);
      const user = await credentialsByEmail(db, email);
      const ok = user?.passwordHash
        ? await verifyPassword(user.passwordHash, password)
        : await burnPasswordCheck(password);
      if (!user || !ok) {
        await backoff.recordFailure(acctKey);
        await audit.appendStandalone(
          authEntry({
            action: AUTH_ACTIONS.login,
            meta,
            userId: user?.id ?? null,
            actor: normalizeEmail(email).slice(0, 320),
            status: 'failure',
            details: { factor: 'password', reason: user ? 'wrong_password' : 'unknown_email' },
          }),
        );
        throw new Unauthorized(INVALID);
      }
      await backoff.clear(acctKey);
      const refuse = user.disabled ? 'account_disabled' : !user.emailVerified ? 'email_not_verified' : null;
      if (refuse) {
        await audit.appendStandalone(
          authEntry({
            action: AUTH_ACTIONS.login,
            meta,
            userId: user.id,
            actor: user.email,
            status: 'failure',
            details: { factor: 'password', reason: refuse },
          }),
        );
        throw new Forbidden(
          refuse === 'account_disabled'
            ? 'this account is disabled'
            : 'email address not verified: follow the link in the verification email, or request a new one',
        );
      }
      if (await mfaEnabled(db, user.id)) {
        await audit.appendStandalone(
          authEntry({
            action: AUTH_ACTIONS.loginPasswordStep,
            meta,
            userId: user.id,
            actor: user.email,
            details: { factor: 'password', next: 'mfa' },
          }),
        );
        return { kind: 'mfa', challenge: await mfa.challenge(user, 'password', null) };
      }
      const session = await sessions.signIn(user, ['password'], meta);
      return { kind: 'session', session };
    },
  };
}
