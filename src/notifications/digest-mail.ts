import type { Db } from '../db/knex';
import type { Mailer, MailMessage } from '../mail/mailer';
import { findMember } from '../orgs/membership-repository';
import { claimSend, wasSent } from './delivery-repository';
import type { DigestItem } from './notification-workflow-contract';

/** The summary mail of one digest window: one line per event, oldest first. */
export function digestMail(to: string, items: DigestItem[]): MailMessage {
  const lines = items.map((i) => `- ${i.occurredAt}  ${i.event}  ${i.title}`);
  return {
    to,
    subject: `Notification digest: ${items.length} event${items.length === 1 ? '' : 's'}`,
    text: ['Events since your last digest:', '', ...lines].join('\n'),
    messageId: `<digest.${items[0]!.eventId}.${Buffer.from(to).toString('hex').slice(0, 32)}@notifications.delivery-platform>`,
  };
}

/**
 * Sends one digest, recorded after the send (keyed by the window's first event): a retry after a recorded send sends
 * nothing; a crash between send and record resends with the same Message-ID, which mail systems fold. A member who
 * left the organization meanwhile gets nothing.
 */
export async function sendDigest(
  deps: { db: Db; mailer: Pick<Mailer, 'send'> },
  input: { organizationId: string; userId: string; items: DigestItem[] },
): Promise<'sent' | 'skipped'> {
  if (input.items.length === 0) return 'skipped';
  const member = await findMember(deps.db, input.organizationId, input.userId);
  if (!member) return 'skipped';
  const key = `digest:${input.userId}:${input.items[0]!.eventId}`;
  if (await wasSent(deps.db, key)) return 'skipped';
  await deps.mailer.send(digestMail(member.email, input.items));
  await claimSend(deps.db, input.organizationId, key);
  return 'sent';
}
