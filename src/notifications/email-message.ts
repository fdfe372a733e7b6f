import type { MailMessage } from '../mail/mailer';
import type { NotificationMessage } from './message';

/**
 * Email rendering (SMTP through the platform mailer): subject `[<severity>] <title>`, a plain-text body with the
 * event, time, facts and the acknowledge link, and a Message-ID derived from event and recipient so a resent copy is
 * recognised by the receiving system.
 */
export function emailOf(message: NotificationMessage, to: string): MailMessage {
  const lines = [
    message.title,
    '',
    `Event: ${message.event} (${message.category})`,
    `Time: ${message.occurredAt}`,
    ...Object.entries(message.facts).map(([k, v]) => `${k}: ${v}`),
  ];
  if (message.link) lines.push('', `Acknowledge: ${message.link}`);
  return {
    to,
    subject: `[${message.severity}] ${message.title}`.slice(0, 200),
    text: lines.join('\n'),
    messageId: `<${message.eventId}.${Buffer.from(to).toString('hex').slice(0, 32)}@notifications.delivery-platform>`,
  };
}
