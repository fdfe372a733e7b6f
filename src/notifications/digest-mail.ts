import type { Db } from '../db/knex';
import type { MailMessage } from '../mail/mailer';
import { findMember } from '../orgs/membership-repository';
import { claimSend, wasSent } from './delivery-repository';
import { derivedUuid } from '../db/derived-uuid';
import { insertInApp } from './inbox-repository';
import { digestChannelsOf, type DigestItem } from './notification-workflow-contract';
import type { OrgMailer } from './org-mailer';

const subjectOf = (count: number) => `Notification digest: ${count} event${count === 1 ? '' : 's'}`;

/** The summary mail of one digest window: one line per event, oldest first; `omitted` more are only counted. */
export function digestMail(to: string, items: DigestItem[], omitted = 0): MailMessage {
  const lines = items.map((i) => `- ${i.occurredAt}  ${i.event}  ${i.title}`);
  const more = omitted > 0 ? [`- and ${omitted} more event${omitted === 1 ? '' : 's'}`] : [];
  return {
    to,
    subject: subjectOf(items.length + omitted),
    text: ['Events since your last digest:', '', ...lines, ...more].join('\n'),
    messageId: `<digest.${items[0]!.eventId}.${Buffer.from(to).toString('hex').slice(0, 32)}@notifications.delivery-platform>`,
  };
}

/**
 * Sends one digest window to every personal channel its items were routed to: one summary mail of the email items
 * (through the organization's relay or the platform's), one in-app summary of the in-app items. The mail is recorded
 * after the send (keyed by the window's first event): a retry after a recorded send sends nothing; a crash between
 * send and record resends with the same Message-ID, which mail systems fold. The in-app summary's id is derived from
 * the same key, so it is written once. A member who left the organization meanwhile gets nothing.
 */
export async function sendDigest(
  deps: { db: Db; mail: Pick<OrgMailer, 'send'> },
  input: { organizationId: string; userId: string; items: DigestItem[]; omitted?: number },
): Promise<'sent' | 'skipped'> {
  if (input.items.length === 0) return 'skipped';
  const member = await findMember(deps.db, input.organizationId, input.userId);
  if (!member) return 'skipped';
  const key = `digest:${input.userId}:${input.items[0]!.eventId}`;
  const forChannel = (c: 'email' | 'in_app') => input.items.filter((i) => digestChannelsOf(i).includes(c));
  const inApp = forChannel('in_app');
  await insertInApp(
    deps.db,
    inApp.length === 0
      ? []
      : [
          {
            organizationId: input.organizationId,
            userId: input.userId,
            eventId: derivedUuid(`${key}:in_app`),
            event: 'notification.digest',
            projectId: null,
            title: subjectOf(inApp.length),
            payload: {
              items: inApp.map(({ eventId, event, title, occurredAt, projectId }) => ({
                eventId,
                event,
                title,
                occurredAt,
                projectId,
              })),
            },
          },
        ],
  );
  const email = forChannel('email');
  if (email.length > 0 && !(await wasSent(deps.db, key))) {
    await deps.mail.send(input.organizationId, digestMail(member.email, email, input.omitted));
    await claimSend(deps.db, input.organizationId, key);
  }
  return 'sent';
}
