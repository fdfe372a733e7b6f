import { createHmac } from 'node:crypto';
import type { HttpAdapter } from './adapter';
import { JSON_HEADERS } from './adapter';

/**
 * HTTP webhook (any URL, JSON): the platform's own envelope, signed like inbound shape A so receivers verify it with
 * the same code: `X-Service-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>` and
 * `X-Service-Timestamp: <unix seconds>`. Without a secret the headers are absent.
 *
 * Body: { id, event, category, severity, occurredAt, organizationId, projectId, title, data, link? } (`link`: the
 * signed acknowledge link of an escalation).
 */
export function signShapeA(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export const httpWebhookAdapter: HttpAdapter = {
  secretRequired: false,
  build(message, target, now) {
    const body = JSON.stringify({
      id: message.eventId,
      event: message.event,
      category: message.category,
      severity: message.severity,
      occurredAt: message.occurredAt,
      organizationId: message.organizationId,
      projectId: message.projectId,
      title: message.title,
      data: message.data,
      ...(message.link ? { link: message.link } : {}),
    });
    const headers: Record<string, string> = { ...JSON_HEADERS, 'x-service-event': message.event };
    if (target.secret) {
      const timestamp = String(Math.floor(now.getTime() / 1000));
      headers['x-service-timestamp'] = timestamp;
      headers['x-service-signature'] = signShapeA(target.secret, timestamp, body);
    }
    return { url: target.url, headers, body };
  },
};
