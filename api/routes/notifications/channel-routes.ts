import type {
  NotificationChannelCreateRequest,
  NotificationChannelUpdateRequest,
  WebhookCreateRequest,
  WebhookUpdateRequest,
} from '../../request-types.generated';
import type { ChannelScope, ChannelService } from '../../../src/notifications/channel-service';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf } from '../../request';

interface Family {
  base: string;
  tag: string;
  /** Dotted action prefix: `projects.{slug}.webhooks` or `org.notifications.channels`. */
  action: string;
  scope(ctx: AppContext): ChannelScope;
  create(ctx: AppContext): ReturnType<ChannelService['create']>;
  updateBody(ctx: AppContext): WebhookUpdateRequest | NotificationChannelUpdateRequest;
}

/** The routes both channel families share: list, one, change (toggle active), delete, test send, delivery log. */
function familyRoutes(channels: ChannelService, f: Family, pageMax: number): RouteDef[] {
  const one = `${f.base}/:id`;
  const id = (ctx: AppContext) => paramOf(ctx, 'id');
  return [
    {
      method: 'get',
      path: f.base,
      summary: 'Channels, by name (secrets never shown)',
      tag: f.tag,
      access: { kind: 'organization', action: `${f.action}.read` },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await channels.list(orgCallerOf(ctx), f.scope(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: f.base,
      summary: 'Add a channel with its chosen events (inactive until toggled unless `active` is sent)',
      tag: f.tag,
      access: { kind: 'organization', action: `${f.action}.create` },
      body: f.tag === 'webhooks' ? 'webhook-create' : 'notification-channel-create',
      status: 201,
      handler: async (ctx) => created(ctx, await f.create(ctx)),
    },
    {
      method: 'get',
      path: one,
      summary: 'One channel',
      tag: f.tag,
      access: { kind: 'organization', action: `${f.action}.read` },
      handler: async (ctx) => {
        ctx.body = await channels.get(orgCallerOf(ctx), f.scope(ctx), id(ctx));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: 'Change a channel: settings, events, retries, or toggle `active`',
      tag: f.tag,
      access: { kind: 'organization', action: `${f.action}.update` },
      body: f.tag === 'webhooks' ? 'webhook-update' : 'notification-channel-update',
      handler: async (ctx) => {
        ctx.body = await channels.update(orgCallerOf(ctx), f.scope(ctx), id(ctx), f.updateBody(ctx));
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Delete a channel and its delivery log',
      tag: f.tag,
      access: { kind: 'organization', action: `${f.action}.delete` },
      handler: async (ctx) => {
        await channels.delete(orgCallerOf(ctx), f.scope(ctx), id(ctx));
        noContent(ctx);
      },
    },
    {
      method: 'post',
      path: `${one}/test`,
      summary: 'Send a test delivery now; answers the delivery result',
      tag: f.tag,
      access: { kind: 'organization', action: `${f.action}.test` },
      handler: async (ctx) => {
        ctx.body = await channels.test(orgCallerOf(ctx), f.scope(ctx), id(ctx));
      },
    },
    {
      method: 'get',
      path: `${one}/deliveries`,
      summary: 'Delivery log of the channel, newest first: timestamp, event, status, response code and body',
      tag: f.tag,
      access: { kind: 'organization', action: `${f.action}.read` },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await channels.deliveries(orgCallerOf(ctx), f.scope(ctx), id(ctx), pageOf(ctx, pageMax));
      },
    },
  ];
}

/** Project HTTP webhooks (/api/v2/projects/{slug}/webhooks*) and the other channel types (/api/v2/notifications/channels*). */
export function channelRoutes(channels: ChannelService, pageMax: number): RouteDef[] {
  const webhooks: Family = {
    base: '/api/v2/projects/:slug/webhooks',
    tag: 'webhooks',
    action: 'projects.{slug}.webhooks',
    scope: (ctx) => ({ kind: 'webhooks', slug: paramOf(ctx, 'slug') }),
    create: (ctx) =>
      channels.create(
        orgCallerOf(ctx),
        { kind: 'webhooks', slug: paramOf(ctx, 'slug') },
        'webhook',
        bodyOf<WebhookCreateRequest>(ctx),
      ),
    updateBody: (ctx) => bodyOf<WebhookUpdateRequest>(ctx),
  };
  const others: Family = {
    base: '/api/v2/notifications/channels',
    tag: 'notifications',
    action: 'org.notifications.channels',
    scope: () => ({ kind: 'channels' }),
    create: (ctx) => {
      const { type, ...input } = bodyOf<NotificationChannelCreateRequest>(ctx);
      return channels.create(orgCallerOf(ctx), { kind: 'channels' }, type, input);
    },
    updateBody: (ctx) => bodyOf<NotificationChannelUpdateRequest>(ctx),
  };
  return [...familyRoutes(channels, webhooks, pageMax), ...familyRoutes(channels, others, pageMax)];
}
