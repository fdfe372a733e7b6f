import type { NotificationSmtpSettingsRequest, NotificationSmtpTestRequest } from '../../request-types.generated';
import type { SmtpService } from '../../../src/notifications/smtp-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, noContent, orgCallerOf } from '../../request';

const BASE = '/api/v2/notifications/smtp';
const access = (verb: string) => ({ kind: 'organization', action: `org.notifications.smtp.${verb}` }) as const;

/** The organization's own SMTP relay for notification email (admins and owners; the password is never answered). */
export function smtpRoutes(smtp: SmtpService): RouteDef[] {
  return [
    {
      method: 'get',
      path: BASE,
      summary: "The organization's SMTP settings (`configured: false` when its email uses the platform's relay)",
      tag: 'notifications',
      access: access('read'),
      handler: async (ctx) => {
        ctx.body = await smtp.get(orgCallerOf(ctx));
      },
    },
    {
      method: 'put',
      path: BASE,
      summary: "Set the organization's SMTP relay (host and port checked like every outbound target)",
      tag: 'notifications',
      access: access('update'),
      body: 'notification-smtp-settings',
      handler: async (ctx) => {
        ctx.body = await smtp.put(orgCallerOf(ctx), bodyOf<NotificationSmtpSettingsRequest>(ctx));
      },
    },
    {
      method: 'delete',
      path: BASE,
      summary: "Remove the organization's SMTP settings: its email goes through the platform's again",
      tag: 'notifications',
      access: access('delete'),
      handler: async (ctx) => {
        await smtp.delete(orgCallerOf(ctx));
        noContent(ctx);
      },
    },
    {
      method: 'post',
      path: `${BASE}/test`,
      summary: "Send a test mail through the organization's relay now; answers the outcome",
      tag: 'notifications',
      access: access('test'),
      body: 'notification-smtp-test',
      handler: async (ctx) => {
        ctx.body = await smtp.test(orgCallerOf(ctx), bodyOf<NotificationSmtpTestRequest>(ctx).to);
      },
    },
  ];
}
