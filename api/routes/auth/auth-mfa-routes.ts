import type {
  AuthMfaReauthRequest,
  AuthMfaTokenRequest,
  AuthMfaVerifyRequest,
  AuthTotpEnableRequest,
} from '../../request-types.generated';
import { InvalidInput } from '../../../src/errors';
import type { Identity } from '../../../src/identity/identity';
import { bodyOf, sessionIdOf, userIdOf } from '../../request';
import type { RouteDef } from '../../route-def';
import { requestMeta, sessionResponse } from './auth-http';

const TAG = 'auth';

/** Exactly one factor per request, so a client can never have two guesses counted as one. */
function oneFactor<T extends object>(body: T, keys: (keyof T & string)[]): T {
  const given = keys.filter((k) => body[k] !== undefined);
  if (given.length !== 1) throw new InvalidInput(`send exactly one of ${keys.join(', ')}`);
  return body;
}

/** MFA: the login step, enrolment and changes for the signed-in user, (an owner's reset of a member's MFA is in ../orgs). */
export function authMfaRoutes(identity: Identity): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/api/v1/auth/mfa/verify',
      summary: 'Second login step: the mfaToken plus a TOTP code, a recovery code or an email code',
      tag: TAG,
      access: { kind: 'public' },
      body: 'auth-mfa-verify',
      handler: async (ctx) => {
        const body = oneFactor(bodyOf<AuthMfaVerifyRequest>(ctx), ['code', 'recoveryCode', 'emailCode']);
        const { session, returnTo } = await identity.mfaLogin.verify(body, requestMeta(ctx));
        ctx.body = { ...sessionResponse(ctx, identity.config, session), ...(returnTo ? { returnTo } : {}) };
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/mfa/email/send',
      summary: 'Email a 6-digit code for this login challenge (only when email delivery is configured)',
      tag: TAG,
      access: { kind: 'public' },
      body: 'auth-mfa-token',
      status: 202,
      handler: async (ctx) => {
        ctx.body = await identity.mfaLogin.sendEmailCode(bodyOf<AuthMfaTokenRequest>(ctx).mfaToken, requestMeta(ctx));
        ctx.status = 202;
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/mfa/totp/setup',
      summary: 'Start TOTP enrolment: a new secret, its otpauth URI and a QR code image (data URL)',
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.mfa.manage' },
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await identity.mfaSettings.setup(userIdOf(ctx));
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/mfa/totp/enable',
      summary: 'Confirm enrolment with the first code; returns the 8 recovery codes once and ends other sessions',
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.mfa.manage' },
      body: 'auth-totp-enable',
      handler: async (ctx) => {
        const { code } = bodyOf<AuthTotpEnableRequest>(ctx);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await identity.mfaSettings.enable(userIdOf(ctx), code, sessionIdOf(ctx), requestMeta(ctx));
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/mfa/disable',
      summary: 'Turn MFA off with a current TOTP code or an unused recovery code; ends other sessions',
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.mfa.manage' },
      body: 'auth-mfa-reauth',
      handler: async (ctx) => {
        const body = oneFactor(bodyOf<AuthMfaReauthRequest>(ctx), ['code', 'recoveryCode']);
        ctx.body = await identity.mfaSettings.disable(userIdOf(ctx), body, sessionIdOf(ctx), requestMeta(ctx));
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/mfa/recovery-codes/regenerate',
      summary: 'New set of 8 recovery codes (the old set stops working); re-authenticate with a code',
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.mfa.manage' },
      body: 'auth-mfa-reauth',
      handler: async (ctx) => {
        const body = oneFactor(bodyOf<AuthMfaReauthRequest>(ctx), ['code', 'recoveryCode']);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await identity.mfaSettings.regenerateRecoveryCodes(
          userIdOf(ctx),
          body,
          sessionIdOf(ctx),
          requestMeta(ctx),
        );
      },
    },
  ];
}
