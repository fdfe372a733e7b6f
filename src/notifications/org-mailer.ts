import nodemailer from 'nodemailer';
import type { Db } from '../db/knex';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { Mailer, MailMessage } from '../mail/mailer';
import { checkSmtpTarget, type OutboundPolicy } from '../net/outbound-policy';
import type { SafeSendLimits } from '../net/safe-http';
import { findSmtpSettings, type SmtpSettingsRecord } from './smtp-settings-repository';

/** Bound to the organization: a sealed password copied onto another organization's row does not open. */
export const smtpPasswordAad = (organizationId: string) => `organization-smtp:${organizationId}`;

/**
 * Notification email of one organization: through the organization's own relay when it configured one
 * (`/api/v2/notifications/smtp`), else through the platform mailer (SMTP_URL, or the .eml spool of the embedded run).
 */
export interface OrgMailer {
  send(organizationId: string, message: MailMessage): Promise<void>;
  /** Sends through these settings, whatever is stored (the settings' test send). */
  sendVia(settings: SmtpSettingsRecord, message: MailMessage): Promise<void>;
}

export interface OrgMailerDeps {
  db: Db;
  secrets: SecretBox;
  mailer: Pick<Mailer, 'send'>;
  outbound: OutboundPolicy;
  limits: SafeSendLimits;
}

export function createOrgMailer(deps: OrgMailerDeps): OrgMailer {
  /**
   * One connection per mail to the relay's checked address (resolved and checked like every outbound target, then
   * pinned: nodemailer is given the address, TLS still verifies the certificate against the host name). `tls` is
   * TLS from the first byte; `starttls` refuses to go on without the upgrade; `none` is plain SMTP.
   */
  async function sendVia(settings: SmtpSettingsRecord, message: MailMessage): Promise<void> {
    const target = await checkSmtpTarget(settings.host, settings.port, deps.outbound);
    const password =
      settings.passwordSealed === null
        ? undefined
        : deps.secrets.open(settings.passwordSealed, smtpPasswordAad(settings.organizationId));
    const transport = nodemailer.createTransport({
      host: target.address,
      port: settings.port,
      secure: settings.security === 'tls',
      requireTLS: settings.security === 'starttls',
      ignoreTLS: settings.security === 'none',
      tls: { servername: target.host },
      name: 'delivery-platform',
      auth: settings.username === null ? undefined : { user: settings.username, pass: password ?? '' },
      connectionTimeout: deps.limits.connectTimeoutMs,
      greetingTimeout: deps.limits.connectTimeoutMs,
      socketTimeout: deps.limits.totalTimeoutMs,
      // NOTIFY_EGRESS_PROXY: nodemailer's own HTTP CONNECT support, asked for the checked address as well.
      ...(deps.outbound.egressProxy ? { proxy: deps.outbound.egressProxy } : {}),
    });
    try {
      await transport.sendMail({ from: settings.fromAddress, ...message });
    } finally {
      transport.close();
    }
  }

  return {
    sendVia,
    async send(organizationId, message) {
      const settings = await findSmtpSettings(deps.db, organizationId);
      await (settings ? sendVia(settings, message) : deps.mailer.send(message));
    },
  };
}
