import { randomInt } from 'node:crypto';
import { Forbidden, InvalidInput, TooManyRequests, Unauthorized } from '../../errors';
import { accountKey, addressKey } from '../../rate-limit/fixed-window-limiter';
import { AUTH_ACTIONS, authEntry, type RequestMeta } from '../auth-audit';
import type { IdentityDeps } from '../identity-deps';
import { safeEqual } from '../secret-tokens';
import type { IssuedSession } from '../session-service';
import { credentialsById, type UserCredentials } from '../../users/user-credentials';
import { countAttempt, consumeChallenge, createChallenge, findChallenge, setEmailCode } from './mfa-challenges';
import {
  checkRecoveryCode,
  checkTotp,
  recordFactorFailure,
  recoveryCodeUsedEntry,
  refusedFactorMessage,
} from './mfa-factors';

export type MfaMethod = 'totp' | 'recovery_code' | 'email';

export interface MfaRequired {
  mfaRequired: true;
  mfaToken: string;
  methods: MfaMethod[];
}

export interface MfaAnswer {
  mfaToken: string;
  code?: string;
  recoveryCode?: string;
  emailCode?: string;
}

/** The second step of every login path (password and OAuth alike): nothing is issued until a factor checks out. */
export function createMfaLogin(deps: IdentityDeps) {
  const { db, audit, config, limiter, mailer, mails, box, sessions } = deps;
  const emailOtpAvailable = () => mailer.deliveryConfigured && config.emailOtpEnabled;
  const methods = (): MfaMethod[] => ['totp', 'recovery_code', ...(emailOtpAvailable() ? (['email'] as const) : [])];

  async function limit(scope: 'mfa' | 'mfa-email', userId: string | null, meta: RequestMeta) {
    const rule = scope === 'mfa' ? config.rates.mfa : config.rates.reset;
    await limiter.hit(
      userId === null
        ? [{ key: addressKey(scope, meta.clientAddress), limit: rule.perAddress }]
        : [{ key: accountKey(scope, userId), limit: rule.perAccount }],
      config.rateWindowMs,
    );
  }

  async function liveChallenge(token: string) {
    const challenge = await findChallenge(db, token);
    if (!challenge) throw new Unauthorized('invalid or expired MFA challenge; sign in again');
    return challenge;
  }

  async function check(
    userId: string,
    challengeEmailHash: string | null,
    live: boolean,
    answer: MfaAnswer,
    challengeId: string,
  ) {
    if (answer.code !== undefined) return checkTotp(db, box, userId, answer.code);
    if (answer.recoveryCode !== undefined) return checkRecoveryCode(db, userId, answer.recoveryCode);
    const expected = challengeEmailHash;
    const ok =
      expected !== null &&
      live &&
      /^\d{6}$/.test(answer.emailCode ?? '') &&
      safeEqual(box.mac(`${challengeId}:${answer.emailCode ?? ''}`), expected);
    return ok
      ? ({ ok: true, factor: 'email_code' } as const)
      : ({ ok: false, factor: 'email_code', reason: 'invalid' } as const);
  }

  return {
    methods,
    emailOtpAvailable,

    async challenge(user: UserCredentials, authMethod: string, returnTo: string | null): Promise<MfaRequired> {
      const mfaToken = await createChallenge(db, {
        userId: user.id,
        authMethod,
        returnTo,
        ttlMs: config.mfaChallengeTtlMs,
      });
      return { mfaRequired: true, mfaToken, methods: methods() };
    },

    async verify(answer: MfaAnswer, meta: RequestMeta): Promise<{ session: IssuedSession; returnTo: string | null }> {
      await limit('mfa', null, meta);
      const challenge = await liveChallenge(answer.mfaToken);
      await limit('mfa', challenge.userId, meta);
      const user = await credentialsById(db, challenge.userId);
      if (!user) throw new Unauthorized('invalid or expired MFA challenge; sign in again');
      if (!(await countAttempt(db, challenge.id, config.mfaMaxAttemptsPerChallenge))) {
        await audit.appendStandalone(
          authEntry({
            action: AUTH_ACTIONS.mfaChallengeLocked,
            meta,
            userId: user.id,
            actor: user.email,
            status: 'blocked',
            details: { attempts: challenge.attempts },
          }),
        );
        throw new TooManyRequests('too many wrong codes for this sign-in; sign in again', 60);
      }
      const result = await check(user.id, challenge.emailCodeHash, challenge.emailCodeLive, answer, challenge.id);
      if (!result.ok) {
        await recordFactorFailure(deps, user, result, meta);
        throw new Unauthorized(refusedFactorMessage(result));
      }
      if (user.disabled) throw new Forbidden('this account is disabled');
      const session = await sessions.signIn(user, [challenge.authMethod, result.factor], meta, async (trx) => {
        if (!(await consumeChallenge(trx, challenge.id))) {
          throw new Unauthorized('invalid or expired MFA challenge; sign in again');
        }
        if (result.factor === 'recovery_code') {
          await audit.append(trx, recoveryCodeUsedEntry(user, result.recoveryCodesLeft ?? 0, meta));
        }
      });
      if (result.factor === 'recovery_code') {
        mailer.sendLater(mails.recoveryCodeUsed(user.email, result.recoveryCodesLeft ?? 0));
      }
      return { session, returnTo: challenge.returnTo };
    },

    /** Email OTP bound to this challenge: 6 digits, at most 10 minutes, stored as an HMAC, never logged (MFA-5). */
    async sendEmailCode(mfaToken: string, meta: RequestMeta) {
      if (!emailOtpAvailable()) throw new InvalidInput('email codes are not available on this deployment');
      await limit('mfa-email', null, meta);
      const challenge = await liveChallenge(mfaToken);
      await limit('mfa-email', challenge.userId, meta);
      const user = await credentialsById(db, challenge.userId);
      if (!user) throw new Unauthorized('invalid or expired MFA challenge; sign in again');
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await setEmailCode(db, challenge.id, box.mac(`${challenge.id}:${code}`), config.emailOtpTtlMs);
      await mailer.send(mails.emailOtp(user.email, code, Math.round(config.emailOtpTtlMs / 60_000)));
      return { sent: true, expiresIn: Math.round(config.emailOtpTtlMs / 1000) };
    },
  };
}

export type MfaLogin = ReturnType<typeof createMfaLogin>;
