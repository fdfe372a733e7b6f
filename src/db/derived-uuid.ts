import { createHash } from 'node:crypto';

/**
 * A uuid derived from a key (SHA-256, shaped as version 4), so a row written again for the same key (a retried
 * activity, a request retried with its Idempotency-Key) gets the same id and is written once: an in-app notification
 * of a derived step (an incident step, a digest summary), a rollout wave's promotion, a bulk update's image rollout.
 */
export function derivedUuid(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
