import type { NotificationPreferencesRequest } from '../../request-types.generated';
import type { InboxService } from '../../../src/notifications/inbox-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

const BASE = '/api/v2/notifications';
const self = { kind: 'organization', action: 'org.notifications.self' } as const;

/** The caller's in-app notifications and personal preferences in the active organization. */
export function inboxRoutes(inbox: InboxService, pageMax: number): RouteDef[] {
  return [
    {
      method: 'get',
      path: BASE,
      summary: 'My in-app notifications, newest first (`unread=true` for unread only)',
      tag: 'notifications',
      access: self,
      query: 'notification-list-query',
      handler: async (ctx) => {
        ctx.body = await inbox.list(orgCallerOf(ctx), pageOf(ctx, pageMax), queryOf(ctx).unread === 'true');
      },
    },
    {
      method: 'get',
      path: `${BASE}/unread-count`,
      summary: 'How many of my in-app notifications are unread',
      tag: 'notifications',
      access: self,
      handler: async (ctx) => {
        ctx.body = await inbox.unreadCount(orgCallerOf(ctx));
      },
    },
    {
      method: 'post',
      path: `${BASE}/:id/read`,
      summary: 'Mark one of my notifications read',
      tag: 'notifications',
      access: self,
      handler: async (ctx) => {
        await inbox.markRead(orgCallerOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
    {
      method: 'post',
      path: `${BASE}/read-all`,
      summary: 'Mark all my notifications read',
      tag: 'notifications',
      access: self,
      handler: async (ctx) => {
        ctx.body = await inbox.markAllRead(orgCallerOf(ctx));
      },
    },
    {
      method: 'get',
      path: `${BASE}/preferences`,
      summary: 'My notification preferences (the in-app default when none are saved)',
      tag: 'notifications',
      access: self,
      handler: async (ctx) => {
        ctx.body = await inbox.getPreferences(orgCallerOf(ctx));
      },
    },
    {
      method: 'put',
      path: `${BASE}/preferences`,
      summary: 'Set my preferences: events or categories, channels per event, project scope, digest interval',
      tag: 'notifications',
      access: self,
      body: 'notification-preferences',
      handler: async (ctx) => {
        ctx.body = await inbox.putPreferences(orgCallerOf(ctx), bodyOf<NotificationPreferencesRequest>(ctx));
      },
    },
  ];
}
