import path from 'node:path';
import { ConfigError, type Env, readString, readUrl } from './parse';

export interface MailConfig {
  /** SMTP_URL, e.g. smtps://user:pass@mail.example.com:465; undefined writes .eml files under DATA_DIR/mail. */
  smtpUrl: string | undefined;
  /** MAIL_FROM, the sender of every mail. */
  from: string;
  /** Where mails go when no SMTP server is configured (the embedded run). */
  spoolDir: string;
}

export function loadMailConfig(env: Env, dataDir: string): MailConfig {
  const smtpUrl = readUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  const from = readString(env, 'MAIL_FROM', 'Delivery Platform <no-reply@localhost>');
  if (/[\r\n]/.test(from)) throw new ConfigError('MAIL_FROM must be a single line');
  return { smtpUrl, from, spoolDir: path.join(dataDir, 'mail') };
}
