import type { DeploymentStatusQueryRequest, WebhookSettingsPutRequest } from '../../request-types.generated';
import type { WebhookDomain } from '../../../src/webhooks/webhook-domain';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, paramOf, queryOf } from '../../request';

const SETTINGS = '/api/v2/projects/:slug/webhook-settings';

/** The raw bytes the body reader kept (inbound webhook bodies are never parsed before their check). */
const rawOf = (ctx: AppContext) => ctx.state.rawBody ?? Buffer.alloc(0);

/**
 * Inbound webhooks (docs/webhooks.md): project settings beside the outbound channels of `/webhooks*`, the signed
 * image-update webhook, the controller's sync status webhook and the sync status it feeds.
 */
export function webhookRoutes(webhooks: WebhookDomain): RouteDef[] {
  const tag = 'inbound-webhooks';
  return [
    {
      method: 'get',
      path: SETTINGS,
      summary: 'Inbound webhook settings: auto-update environments, filters, secret overlap (never the secret)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.webhook-settings.read' },
      handler: async (ctx) => {
        ctx.body = await webhooks.settings.get(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'put',
      path: SETTINGS,
      summary: 'Create (201, with the new shared secret shown once) or change (200) the inbound webhook settings',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.webhook-settings.update' },
      body: 'webhook-settings-put',
      handler: async (ctx) => {
        const result = await webhooks.settings.put(
          orgCallerOf(ctx),
          paramOf(ctx, 'slug'),
          bodyOf<WebhookSettingsPutRequest>(ctx),
        );
        if (result.created) created(ctx, result.settings);
        else ctx.body = result.settings;
      },
    },
    {
      method: 'post',
      path: `${SETTINGS}/rotate-secret`,
      summary: 'A new shared secret, shown once; the previous one verifies until WEBHOOK_SECRET_OVERLAP has passed',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.webhook-settings.update' },
      handler: async (ctx) => {
        ctx.body = await webhooks.settings.rotate(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'delete',
      path: SETTINGS,
      summary: 'Remove the inbound webhook settings (image updates for the project are refused with 401)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.webhook-settings.delete' },
      handler: async (ctx) => {
        await webhooks.settings.remove(orgCallerOf(ctx), paramOf(ctx, 'slug'));
        noContent(ctx);
      },
    },
    {
      method: 'get',
      path: '/api/v2/projects/:slug/deployment-status',
      summary: "The controller's last sync and health per tenant, environment and service (filters optional)",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.deployment-status.read' },
      query: 'deployment-status-query',
      handler: async (ctx) => {
        const q = queryOf(ctx) as DeploymentStatusQueryRequest;
        ctx.body = await webhooks.controller.statuses(orgCallerOf(ctx), paramOf(ctx, 'slug'), q);
      },
    },
    {
      method: 'get',
      path: '/api/v2/org/cdcontroller-token',
      summary:
        'Whether the organization has a controller webhook token and since when (never its value), and until when ' +
        'the previous one still works',
      tag,
      access: { kind: 'organization', action: 'org.cdcontroller-token.read' },
      handler: async (ctx) => {
        ctx.body = await webhooks.controller.tokenState(orgCallerOf(ctx));
      },
    },
    {
      method: 'post',
      path: '/api/v2/org/cdcontroller-token',
      summary:
        'A new controller webhook token for the organization, shown once; the previous one keeps working for the ' +
        'overlap (previousTokenValidUntil null for the first token)',
      tag,
      access: { kind: 'organization', action: 'org.cdcontroller-token.rotate' },
      handler: async (ctx) => {
        ctx.body = await webhooks.controller.rotateToken(orgCallerOf(ctx));
      },
    },
    {
      method: 'post',
      path: '/api/v1/webhooks/image-update',
      summary:
        'Signed image update from CI (shapes A and B): 200 committed (a resend: the recorded answer), 202 queued, 400, 401, 404, 409 while the same bytes are in progress, 413, 422 filtered',
      tag,
      access: { kind: 'public' },
      handler: async (ctx) => {
        const answer = await webhooks.imageUpdates.receive(
          rawOf(ctx),
          {
            signature: ctx.get('X-Service-Signature') || undefined,
            timestamp: ctx.get('X-Service-Timestamp') || undefined,
          },
          ctx.state.requestId,
        );
        ctx.status = answer.status;
        ctx.body = answer.body;
      },
    },
    {
      method: 'get',
      path: '/api/v1/webhooks/image-update/requests/:id',
      summary: 'Status of an image update that answered 202 (the id in its status URL)',
      tag,
      access: { kind: 'public' },
      handler: async (ctx) => {
        ctx.body = await webhooks.imageUpdates.status(paramOf(ctx, 'id'));
      },
    },
    {
      method: 'post',
      path: '/api/v1/webhooks/cdcontroller',
      summary:
        "The controller's sync status of one Application (Bearer controller token): stored, and the waiting release told",
      tag,
      access: { kind: 'public' },
      handler: async (ctx) => {
        ctx.body = await webhooks.controller.receive(
          rawOf(ctx),
          ctx.get('Authorization') || undefined,
          ctx.state.requestId,
        );
      },
    },
  ];
}
