import { randomUUID } from 'node:crypto';
import type { Page, PageRequest } from '../db/pagination';
import { InvalidInput } from '../errors';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import { checkTarget, TargetRefused, type OutboundPolicy } from '../net/outbound-policy';
import type { PlanGate } from '../plans/plan-gate';
import type { ProjectService } from '../projects/project-service';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';
import {
  deleteChannel,
  findChannel,
  insertChannel,
  listChannels,
  updateChannel,
  type ChannelRecord,
  type ChannelType,
} from './channel-repository';
import { openChannel, sealChannel } from './channel-secrets';
import { recipientsOf, type ChannelDeliver, type DeliveryResult } from './channel-sender';
import { CHANNEL_FEATURE, splitTarget, viewOf, type ChannelView, type TargetInput } from './channel-settings';
import { listAttempts, type DeliveryAttempt } from './delivery-repository';
import { canonicalSelector, isEventSelector, notificationEventOf, NOTIFICATION_EVENTS, selects } from './event-catalog';
import { messageOf } from './message';

export interface ChannelInput extends TargetInput {
  name?: string;
  events?: string[];
  active?: boolean;
  retry?: { attempts: number; backoffMs: number };
}

/** Starts the organization's outbox dispatcher when it is not running (src/notifications/dispatcher-starter.ts). */
export interface DispatcherPort {
  ensure(organizationId: string): Promise<void>;
}

export interface ChannelServiceDeps extends OrgDomainDeps {
  secrets: SecretBox;
  plans: PlanGate;
  projects: Pick<ProjectService, 'projectOf' | 'namedProjectOf'>;
  outbound: OutboundPolicy;
  deliver: ChannelDeliver;
  dispatcher: DispatcherPort;
  maxAttempts: number;
  /** Test sends relay text the caller chose: counted per organization, and so are the recipients they reach. */
  testSends: { limiter: RateLimiter; perOrganization: number; recipientsPerOrganization: number; windowMs: number };
}

/** Where a channel lives: a project's webhooks, or the organization's other channel types. */
export type ChannelScope = { kind: 'webhooks'; slug: string } | { kind: 'channels' };

export type ChannelService = ReturnType<typeof createChannelService>;

/**
 * Notification channels (/api/v2/projects/{slug}/webhooks*, /api/v2/notifications/channels*): add with chosen events,
 * send a test delivery (its result returned), toggle active, read the delivery log. Targets are checked against the
 * outbound policy here and again at every send; secrets and credential URLs are sealed at rest.
 */
export function createChannelService(deps: ChannelServiceDeps) {
  const { db } = deps;
  const { lookup, record, found } = orgResource(
    deps,
    { table: 'notification_channels', resourceType: 'notification channel', category: 'webhook' },
    findChannel,
  );

  async function projectIdOf(caller: OrgCaller, scope: ChannelScope, projectSlug?: string): Promise<string | null> {
    // The path's project (`/projects/{slug}/webhooks`) answers 404 when missing; one named in the body answers 400.
    if (scope.kind === 'webhooks') return (await deps.projects.projectOf(caller, scope.slug)).id;
    return projectSlug === undefined ? null : (await deps.projects.namedProjectOf(caller, projectSlug)).id;
  }

  /** The channel of the caller's organization in this scope; any other answers 404 like a missing one. */
  async function channelOf(caller: OrgCaller, scope: ChannelScope, id: string): Promise<ChannelRecord> {
    const channel = await lookup(caller, id);
    const projectId = await projectIdOf(caller, scope);
    const inScope =
      scope.kind === 'webhooks'
        ? channel.type === 'webhook' && channel.projectId === projectId
        : channel.type !== 'webhook';
    found(inScope);
    return channel;
  }

  function events(list: string[]): string[] {
    const bad = list.find((e) => !isEventSelector(e));
    if (bad !== undefined) throw new InvalidInput(`unknown event or group: ${bad}`);
    return [...new Set(list.map(canonicalSelector))];
  }

  function retry(input: ChannelInput['retry']): { retryAttempts?: number; retryBackoffMs?: number } {
    if (!input) return {};
    if (input.attempts > deps.maxAttempts) throw new InvalidInput(`retry.attempts must be at most ${deps.maxAttempts}`);
    return { retryAttempts: input.attempts, retryBackoffMs: input.backoffMs };
  }

  async function checked(url: string | null): Promise<void> {
    if (url === null) return;
    try {
      await checkTarget(url, deps.outbound);
    } catch (err) {
      if (err instanceof TargetRefused) throw new InvalidInput(err.message);
      throw err;
    }
  }

  const view = (c: ChannelRecord) => viewOf(c, openChannel(deps.secrets, c.id, c.secretSealed).secret !== undefined);
  const audited = (c: ChannelRecord) => ({ id: c.id, slug: c.name });

  return {
    async create(
      caller: OrgCaller,
      scope: ChannelScope,
      type: ChannelType,
      input: ChannelInput & { project?: string },
    ): Promise<ChannelView> {
      await deps.plans.require(caller.organizationId, CHANNEL_FEATURE[type]);
      const projectId = await projectIdOf(caller, scope, input.project);
      const target = splitTarget(type, input);
      await checked(target.url);
      const id = randomUUID();
      const channel = await db.transaction(async (trx) => {
        const created = await insertChannel(trx, caller.organizationId, {
          id,
          projectId,
          type,
          name: input.name ?? type,
          settings: target.settings,
          secretSealed: sealChannel(deps.secrets, id, target.sealed),
          events: events(input.events ?? []),
          active: input.active ?? false,
          retryAttempts: 1,
          retryBackoffMs: 0,
          createdBy: caller.principal.userId,
          ...retry(input.retry),
        });
        await record(
          trx,
          caller,
          'notification.channel.create',
          audited(created),
          {
            type,
            events: created.events,
            active: created.active,
            settings: created.settings,
          },
          { projectId },
        );
        return created;
      });
      await deps.dispatcher.ensure(caller.organizationId);
      return view(channel);
    },

    async list(caller: OrgCaller, scope: ChannelScope, page: PageRequest): Promise<Page<ChannelView>> {
      const projectId = await projectIdOf(caller, scope);
      const filter = scope.kind === 'webhooks' ? { webhooksOf: projectId! } : ({ nonWebhook: true } as const);
      const result = await listChannels(db, caller.organizationId, filter, page);
      return { ...result, items: result.items.map(view) };
    },

    get: async (caller: OrgCaller, scope: ChannelScope, id: string) => view(await channelOf(caller, scope, id)),

    /** Changes settings, events, retries or `active` (the toggle); a new URL is checked like at creation. */
    async update(caller: OrgCaller, scope: ChannelScope, id: string, input: ChannelInput): Promise<ChannelView> {
      const current = await channelOf(caller, scope, id);
      const targetChanged = ['url', 'secret', 'mode', 'channel', 'recipients'].some((k) => k in input);
      const previous = { settings: current.settings, sealed: openChannel(deps.secrets, id, current.secretSealed) };
      const target = targetChanged ? splitTarget(current.type, input, previous) : null;
      if (target && input.url !== undefined) await checked(target.url);
      const updated = await db.transaction(async (trx) => {
        const changed = await updateChannel(trx, caller.organizationId, current.id, {
          name: input.name,
          events: input.events ? events(input.events) : undefined,
          active: input.active,
          ...(target
            ? { settings: target.settings, secretSealed: sealChannel(deps.secrets, current.id, target.sealed) }
            : {}),
          ...retry(input.retry),
        });
        found(changed !== null);
        const { secret: _secret, url: _url, ...shown } = input;
        await record(
          trx,
          caller,
          'notification.channel.update',
          audited(current),
          {
            changes: {
              ...shown,
              ...(input.url !== undefined ? { url: 'changed' } : {}),
              ...(_secret !== undefined ? { secret: 'changed' } : {}),
            },
          },
          { projectId: current.projectId },
        );
        return changed!;
      });
      return view(updated);
    },

    async delete(caller: OrgCaller, scope: ChannelScope, id: string): Promise<void> {
      const current = await channelOf(caller, scope, id);
      await db.transaction(async (trx) => {
        found(await deleteChannel(trx, caller.organizationId, current.id));
        await record(
          trx,
          caller,
          'notification.channel.delete',
          audited(current),
          { type: current.type },
          {
            projectId: current.projectId,
          },
        );
      });
    },

    /**
     * A test delivery of the channel's first selected event (active or not), sent now through the same adapter and
     * safe sender as real events; the result is returned and logged like any attempt.
     */
    async test(
      caller: OrgCaller,
      scope: ChannelScope,
      id: string,
    ): Promise<{ results: (DeliveryResult & { recipient: string })[] }> {
      const channel = await channelOf(caller, scope, id);
      const recipients = recipientsOf(channel);
      const { limiter, perOrganization, recipientsPerOrganization, windowMs } = deps.testSends;
      await limiter.hit(
        [
          { key: `notify-test:org:${caller.organizationId}`, limit: perOrganization },
          {
            key: `notify-test-recipients:org:${caller.organizationId}`,
            limit: recipientsPerOrganization,
            cost: recipients.length,
          },
        ],
        windowMs,
      );
      const event =
        NOTIFICATION_EVENTS.find((e) => selects(channel.events, e)) ?? notificationEventOf('release.create')!;
      const message = messageOf({
        event,
        eventId: randomUUID(),
        organizationId: caller.organizationId,
        projectId: channel.projectId,
        occurredAt: new Date().toISOString(),
        data: { test: true, channel: channel.name, sentBy: caller.principal.actor },
        title: `Test notification (${event}) for ${channel.name}`,
      });
      const results: (DeliveryResult & { recipient: string })[] = [];
      for (const recipient of recipients) {
        results.push({
          recipient,
          ...(await deps.deliver(channel, message, { eventId: null, recipient, mayWait: false })),
        });
      }
      await db.transaction((trx) =>
        record(
          trx,
          caller,
          'notification.channel.test',
          audited(channel),
          {
            statuses: results.map((r) => r.status),
          },
          { projectId: channel.projectId },
        ),
      );
      return { results };
    },

    async deliveries(
      caller: OrgCaller,
      scope: ChannelScope,
      id: string,
      page: PageRequest,
    ): Promise<Page<DeliveryAttempt>> {
      const channel = await channelOf(caller, scope, id);
      return listAttempts(db, caller.organizationId, channel.id, page);
    },
  };
}
