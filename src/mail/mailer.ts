import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../config/mail';
import { errorFields, type Logger } from '../logging/logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable Message-ID for a mail an activity may retry: receiving systems recognise a resent copy. */
  messageId?: string;
}

/** Outgoing mail for every domain (verification, password reset, MFA codes, security notices, invitations). */
export interface Mailer {
  /**
   * True when a real SMTP server is configured. Features that rely on the user actually receiving the mail (email
   * OTP as a second factor) are offered only then; the .eml spool of the embedded run is for local development.
   */
  readonly deliveryConfigured: boolean;
  /** Sends now; rejects when the SMTP server refuses. */
  send(message: MailMessage): Promise<void>;
  /**
   * Sends after the caller has answered, logging failures. Used where the response must not depend on whether a
   * mail was sent (no account enumeration by status or timing); close() waits for these. Given a function, runs it
   * after the answer too and sends what it returns (nothing for null): the work that depends on whether an account
   * exists (looking it up, issuing its token) then costs the answer nothing either.
   */
  sendLater(message: MailMessage | (() => Promise<MailMessage | null>)): void;
  close(): Promise<void>;
}

type Deliver = (message: MailMessage) => Promise<void>;

export function createMailer(config: MailConfig, log: Logger): Mailer {
  const mailLog = log.child({ component: 'mail' });
  const transport: Transporter = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const deliver: Deliver = config.smtpUrl
    ? async (message) => {
        const info = (await transport.sendMail({ from: config.from, ...message })) as { messageId?: string };
        // Never log the body: it carries one-time codes and links that are credentials.
        mailLog.info('mail sent', { to: message.to, subject: message.subject, messageId: info.messageId });
      }
    : spoolDelivery(transport, config, mailLog);
  const pending = new Set<Promise<void>>();
  return {
    deliveryConfigured: config.smtpUrl !== undefined,
    send: deliver,
    sendLater(message) {
      const compose = typeof message === 'function' ? message : () => Promise.resolve(message);
      // setImmediate: the caller's response goes out before any of the work starts.
      const sending = new Promise<void>((resolve) => setImmediate(resolve))
        .then(compose)
        .then(async (composed) => {
          if (!composed) return;
          await deliver(composed).catch((err: unknown) =>
            mailLog.error('mail not sent', { to: composed.to, ...errorFields(err) }),
          );
        })
        .catch((err: unknown) => mailLog.error('mail not composed', errorFields(err)))
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async close() {
      await Promise.allSettled([...pending]);
      transport.close();
    },
  };
}

/**
 * The embedded run has no mail server: nodemailer renders each message and it is written as an .eml file, and the
 * text is logged so a developer can follow a verification link. Never used when SMTP_URL is set. Beside each .eml
 * (whose quoted-printable body breaks long lines, and so tokens, with soft line breaks) a .txt holds the addressee,
 * subject and the text as sent, 8-bit, one token per line: what a reader greps for a link or a code.
 */
function spoolDelivery(transport: Transporter, config: MailConfig, log: Logger): Deliver {
  return async (message) => {
    const info = (await transport.sendMail({ from: config.from, ...message })) as { message: Buffer };
    await fs.mkdir(config.spoolDir, { recursive: true, mode: 0o700 });
    const file = path.join(config.spoolDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
    await fs.writeFile(file, info.message, { mode: 0o600 });
    await fs.writeFile(file.replace(/\.eml$/, '.txt'), readableCopy(message), { mode: 0o600 });
    log.info('mail written to spool (no SMTP_URL configured)', {
      to: message.to,
      subject: message.subject,
      file,
      text: message.text,
    });
  };
}

/** The .txt beside a spooled .eml: headers a reader needs, then the plain text exactly as composed. */
export function readableCopy(message: MailMessage): string {
  return `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`;
}
