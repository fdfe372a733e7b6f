import type { CapturedMail, SmtpCapture } from '../../helpers/smtp-capture';

const SUBJECT = /^You are invited to join /;

/** The token of the accept link in an invitation mail. */
export function invitationTokenIn(mail: CapturedMail): string {
  const match = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no invitation link in mail "${mail.subject}"`);
  return match[1];
}

/** Runs `send`, then waits for the invitation mail it causes to `email` and returns that mail's token. */
export async function mailedToken(smtp: SmtpCapture, email: string, send: () => Promise<void>): Promise<string> {
  const seen = smtp.to(email).filter((m) => SUBJECT.test(m.subject)).length;
  await send();
  return invitationTokenIn(await smtp.waitFor(email, SUBJECT, seen));
}
