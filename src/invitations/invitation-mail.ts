import type { MailMessage } from '../mail/mailer';
import { asDisplayName } from '../users/display-name';

export interface InvitationMailInput {
  to: string;
  organizationName: string;
  role: string;
  inviter: string;
  token: string;
  expiresAt: string;
  publicUrl: string;
}

/** The only place the plaintext token is written: the invitation email. */
export function invitationMail(input: InvitationMailInput): MailMessage {
  const base = input.publicUrl.replace(/\/$/, '');
  const link = `${base}/invitations/${input.token}`;
  const organization = asDisplayName(input.organizationName);
  const inviter = asDisplayName(input.inviter);
  return {
    to: input.to,
    subject: `You are invited to join ${organization}`,
    text: [
      `${inviter} invited you to join the organization "${organization}" as ${input.role}.`,
      '',
      `Accept the invitation: ${link}`,
      `(API: POST ${base}/api/v1/invitations/${input.token}/accept while signed in with ${input.to})`,
      '',
      `The invitation expires at ${input.expiresAt}. If you did not expect it, ignore this email.`,
    ].join('\n'),
  };
}
