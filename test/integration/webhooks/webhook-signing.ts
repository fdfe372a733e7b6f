import { createHmac } from 'node:crypto';

/** Signs like a CI job following docs/webhooks.md: shape A over `<timestamp>.<body>`, shape B over the body. */
export const hmacHex = (secret: string, data: string | Buffer) =>
  createHmac('sha256', secret).update(data).digest('hex');

export function shapeAHeaders(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  return {
    'Content-Type': 'application/json',
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': `sha256=${hmacHex(secret, `${timestamp}.${body}`)}`,
  };
}

export function shapeBHeaders(secret: string, body: string) {
  return { 'Content-Type': 'application/json', 'X-Service-Signature': `sha256=${hmacHex(secret, body)}` };
}

export const DIGEST = `sha256:${'ab'.repeat(32)}`;
