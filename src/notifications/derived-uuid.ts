import { createHash } from 'node:crypto';

/**
 * A uuid derived from a key (SHA-256, shaped as version 4): an in-app row written for a derived step (an incident
 * step, a digest summary) gets the same event id on every retry, so the (event, user) unique key writes it once.
 */
export function derivedUuid(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
