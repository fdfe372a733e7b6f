import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import { updateChannel, type ChannelRecord } from './channel-repository';

/**
 * A target that answered 410 Gone asked never to be called again (Standard Webhooks): the channel is switched off,
 * audited as a system action; its owners see it inactive and can switch it on again.
 */
export function switchOffGoneChannel(deps: { db: Db; audit: AuditService }) {
  return (channel: ChannelRecord): Promise<void> =>
    deps.db.transaction(async (trx) => {
      if (!(await updateChannel(trx, channel.organizationId, channel.id, { active: false }))) return;
      await deps.audit.append(trx, {
        organizationId: channel.organizationId,
        projectId: channel.projectId,
        userId: null,
        actorType: 'system',
        actor: 'notifications',
        requestId: null,
        action: 'notification.channel.disable',
        category: 'webhook',
        resourceType: 'notification channel',
        resourceId: channel.id,
        details: { slug: channel.name, reason: 'target answered 410 Gone' },
      });
    });
}
