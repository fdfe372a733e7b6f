import type {
  AuthEmailOnlyRequest,
  AuthPasswordChangeRequest,
  AuthPasswordResetRequest,
  AuthRegisterRequest,
  AuthVerifyEmailRequest,
} from '../../request-types.generated';
import type { Identity } from '../../../src/identity/identity';
import type { RouteDef } from '../../route-def';
import { bodyOf, sessionIdOf, userIdOf } from '../../request';
import { requestMeta } from './auth-http';

const TAG = 'auth';

/** Registration, email verification, and passwords (change, forgotten, reset). */
export function authAccountRoutes(identity: Identity): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/api/v1/auth/register',
      summary: 'Create an account; a verification email follows. Same answer whether or not the email is taken',
      tag: TAG,
      access: { kind: 'public' },
      body: 'auth-register',
      status: 202,
      handler: async (ctx) => {
        const body = bodyOf<AuthRegisterRequest>(ctx);
        ctx.body = await identity.registration.register(body, requestMeta(ctx));
        ctx.status = 202;
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/verify-email',
      summary: 'Confirm the email address with the token from the verification email',
      tag: TAG,
      access: { kind: 'public' },
      body: 'auth-verify-email',
      handler: async (ctx) => {
        ctx.body = await identity.registration.verifyEmail(bodyOf<AuthVerifyEmailRequest>(ctx).token, requestMeta(ctx));
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/resend-verification',
      summary: 'Send a new verification email if the address has an unverified account; same answer either way',
      tag: TAG,
      access: { kind: 'public' },
      body: 'auth-email-only',
      status: 202,
      handler: async (ctx) => {
        const { email } = bodyOf<AuthEmailOnlyRequest>(ctx);
        ctx.body = await identity.registration.resendVerification(email, requestMeta(ctx));
        ctx.status = 202;
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/password',
      summary: 'Change the password (current one required); ends the other sessions and returns a new access token',
      tag: TAG,
      access: { kind: 'authenticated', action: 'auth.password.change' },
      body: 'auth-password-change',
      handler: async (ctx) => {
        const body = bodyOf<AuthPasswordChangeRequest>(ctx);
        const sessionId = sessionIdOf(ctx);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await identity.passwords.change(userIdOf(ctx), sessionId, body, requestMeta(ctx));
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/password/forgot',
      summary: 'Email a password reset link if the address has an account; same answer either way',
      tag: TAG,
      access: { kind: 'public' },
      body: 'auth-email-only',
      status: 202,
      handler: async (ctx) => {
        ctx.body = await identity.passwords.forgot(bodyOf<AuthEmailOnlyRequest>(ctx).email, requestMeta(ctx));
        ctx.status = 202;
      },
    },
    {
      method: 'post',
      path: '/api/v1/auth/password/reset',
      summary: 'Set a new password with the emailed token; ends every session and lifts a login lock',
      tag: TAG,
      access: { kind: 'public' },
      body: 'auth-password-reset',
      handler: async (ctx) => {
        const { token, password } = bodyOf<AuthPasswordResetRequest>(ctx);
        ctx.body = await identity.passwords.reset(token, password, requestMeta(ctx));
      },
    },
  ];
}
