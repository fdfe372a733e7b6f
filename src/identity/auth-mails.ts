import type { MailMessage } from '../mail/mailer';

/**
 * The texts of every identity mail. Links carry single-use tokens; security notices tell the user what changed and
 * what to do if it was not them (out-of-band notification, SES-8, MFA-2, MFA-4).
 */
export function authMails(publicUrl: string) {
  const base = publicUrl.replace(/\/$/, '');
  const notice = (to: string, subject: string, what: string): MailMessage => ({
    to,
    subject,
    text: `${what}\n\nIf this was not you, reset your password at ${base}/forgot-password and contact your administrator.\n`,
  });
  return {
    verifyEmail: (to: string, token: string, ttlHours: number): MailMessage => ({
      to,
      subject: 'Confirm your email address',
      text:
        `Confirm your email address to finish creating your account:\n\n${base}/verify-email?token=${token}\n\n` +
        `The link works once and expires in ${ttlHours} hours. API clients: POST /api/v1/auth/verify-email ` +
        `with {"token": "${token}"}.\n`,
    }),
    alreadyRegistered: (to: string): MailMessage => ({
      to,
      subject: 'Someone tried to register with your email address',
      text:
        `Someone tried to create an account with this email address, which already has one. You can sign in at ` +
        `${base}/login, or reset your password at ${base}/forgot-password. If this was not you, ignore this mail.\n`,
    }),
    passwordReset: (to: string, token: string, ttlMinutes: number): MailMessage => ({
      to,
      subject: 'Reset your password',
      text:
        `Set a new password here:\n\n${base}/reset-password?token=${token}\n\nThe link works once and expires in ` +
        `${ttlMinutes} minutes. API clients: POST /api/v1/auth/password/reset with {"token": "${token}", ` +
        `"password": "..."}. If you did not ask for this, ignore this mail.\n`,
    }),
    emailOtp: (to: string, code: string, ttlMinutes: number): MailMessage => ({
      to,
      subject: 'Your sign-in code',
      text: `Your sign-in code is ${code}\n\nIt is valid for ${ttlMinutes} minutes and only for the sign-in that asked for it.\n`,
    }),
    passwordChanged: (to: string) =>
      notice(
        to,
        'Your password was changed',
        'The password of your account was changed; your other sessions were signed out.',
      ),
    mfaEnabled: (to: string) =>
      notice(to, 'Two-factor authentication enabled', 'Two-factor authentication was enabled on your account.'),
    mfaDisabled: (to: string) =>
      notice(to, 'Two-factor authentication disabled', 'Two-factor authentication was disabled on your account.'),
    mfaReset: (to: string, by: string) =>
      notice(
        to,
        'Two-factor authentication was reset',
        `Two-factor authentication on your account was reset by ${by}. Set it up again after signing in.`,
      ),
    recoveryCodesRegenerated: (to: string) =>
      notice(
        to,
        'New recovery codes generated',
        'New recovery codes were generated for your account; the previous ones no longer work.',
      ),
    recoveryCodeUsed: (to: string, remaining: number) =>
      notice(
        to,
        'A recovery code was used',
        `A recovery code was used to sign in to your account. ${remaining} unused codes remain.`,
      ),
    codeReused: (to: string) =>
      notice(
        to,
        'An authentication code was used twice',
        'A sign-in attempt on your account presented an authenticator code that had already been used. It was refused. ' +
          'Someone may know your password.',
      ),
  };
}

export type AuthMails = ReturnType<typeof authMails>;
