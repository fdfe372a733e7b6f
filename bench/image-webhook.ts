import { createHmac } from 'node:crypto';

/**
 * The headers of a signed shape A image update (docs/webhooks.md): the project's webhook secret over
 * `<unix seconds>.<raw body>`. bench:webhook and bench:watch send them.
 */
export function shapeAHeaders(
  secret: string,
  body: string,
  signedAt = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`${signedAt}.${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'x-service-timestamp': String(signedAt),
    'x-service-signature': `sha256=${signature}`,
  };
}
