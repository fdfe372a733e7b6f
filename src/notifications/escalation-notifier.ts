import type { Db } from '../db/knex';
import type { SecretBox } from '../identity/mfa/secret-box';
import { findMember } from '../orgs/membership-repository';
import { listTeamMembers } from '../teams/team-repository';
import { findChannel } from './channel-repository';
import { findIncidentById } from './escalation-repository';
import { recipientsOf, type ChannelDeliver } from './channel-sender';
import { claimSend, wasSent } from './delivery-repository';
import { derivedUuid } from '../db/derived-uuid';
import { emailOf } from './email-message';
import { insertInApp } from './inbox-repository';
import { ackLink } from './incident-link';
import type { NotificationMessage } from './message';
import type { OrgMailer } from './org-mailer';
import type { EscalationTarget, IncidentInput } from './notification-workflow-contract';

export interface EscalationNotifierDeps {
  db: Db;
  secrets: SecretBox;
  mail: Pick<OrgMailer, 'send'>;
  deliver: ChannelDeliver;
  publicUrl: string;
}

/** Users a tier names (teams expanded), members of the organization only. */
async function usersOf(
  db: Db,
  organizationId: string,
  targets: EscalationTarget[],
): Promise<{ userId: string; email: string }[]> {
  const users = new Map<string, string>();
  for (const t of targets) {
    if (t.kind === 'user') {
      const m = await findMember(db, organizationId, t.id);
      if (m) users.set(m.userId, m.email);
    } else if (t.kind === 'team') {
      const page = await listTeamMembers(db, organizationId, t.id, { limit: 1000 });
      for (const m of page.items) users.set(m.userId, m.email);
    }
  }
  return [...users].map(([userId, email]) => ({ userId, email }));
}

/**
 * One escalation step: the tier's channels get the message (with the signed acknowledge link and the incident as
 * dedup key), its users and teams an in-app notification and an email. Channel sends are claimed first (at most
 * once, as every channel delivery); mails are recorded after sending (below).
 */
export function createEscalationNotifier(deps: EscalationNotifierDeps) {
  const { db } = deps;
  const claim = (organizationId: string, key: string) => claimSend(db, organizationId, key);

  async function toChannels(
    input: IncidentInput,
    message: NotificationMessage,
    targets: EscalationTarget[],
    step: string,
  ) {
    for (const t of targets.filter((x) => x.kind === 'channel')) {
      const channel = await findChannel(db, input.organizationId, t.id);
      if (!channel) continue;
      for (const recipient of recipientsOf(channel)) {
        if (!(await claim(input.organizationId, `${step}:${channel.id}:${recipient}`))) continue;
        await deps.deliver(channel, message, { eventId: input.message.eventId, recipient });
      }
    }
  }

  return {
    async notifyTier(input: IncidentInput & { tierIndex: number; cycle: number; targets: EscalationTarget[] }) {
      const step = `incident:${input.incidentId}:${input.cycle}:${input.tierIndex}`;
      // Aggregation: similar events joined the incident since it opened; every later step says how many.
      const events = (await findIncidentById(db, input.incidentId))?.eventCount ?? 1;
      const message: NotificationMessage = {
        ...input.message,
        title: `[${input.policy.name}] ${input.message.title}${events > 1 ? ` (${events} events)` : ''}`,
        facts: { ...input.message.facts, events: String(events) },
        dedupKey: input.incidentId,
        action: 'trigger',
        link: ackLink(deps.secrets, deps.publicUrl, input.incidentId),
      };
      await toChannels(input, message, input.targets, step);
      const users = await usersOf(db, input.organizationId, input.targets);
      await insertInApp(
        db,
        users.map((u) => ({
          organizationId: input.organizationId,
          userId: u.userId,
          eventId: derivedUuid(step),
          event: message.event,
          projectId: message.projectId,
          title: message.title,
          payload: { incidentId: input.incidentId, tier: input.tierIndex, cycle: input.cycle, link: message.link },
        })),
      );
      // Escalation mails are at-least-once: recorded after the send, so an SMTP failure is retried by the activity; a
      // crash between send and record resends with the same Message-ID.
      for (const u of users) {
        const key = `${step}:user:${u.userId}`;
        if (await wasSent(db, key)) continue;
        await deps.mail.send(input.organizationId, emailOf(message, u.email));
        await claim(input.organizationId, key);
      }
    },

    /** Closes the alert at the paging and alert services the incident reached (their resolve call, same dedup key). */
    async resolveTargets(input: IncidentInput) {
      const message: NotificationMessage = { ...input.message, dedupKey: input.incidentId, action: 'resolve' };
      const tiers = [
        ...input.policy.tiers,
        ...(input.policy.businessHours?.afterHoursTier ? [input.policy.businessHours.afterHoursTier] : []),
      ];
      const channels = tiers.flatMap((t) => t.targets);
      for (const t of channels.filter((x) => x.kind === 'channel')) {
        const channel = await findChannel(db, input.organizationId, t.id);
        if (!channel || (channel.type !== 'paging' && channel.type !== 'alerts')) continue;
        if (!(await claim(input.organizationId, `incident:${input.incidentId}:resolve:${channel.id}`))) continue;
        await deps.deliver(channel, message, { eventId: input.message.eventId, recipient: '' });
      }
    },
  };
}
