import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The one accepted scheme: `sha256=` and 64 lowercase hex digits. Anything else (uppercase, short, two values) fails. */
const SIGNATURE = /^sha256=([0-9a-f]{64})$/;
/** Unix seconds, digits only. */
const UNIX_SECONDS = /^[0-9]{1,12}$/;

/** The MAC a header carries, or null when the header is not exactly one well-formed signature. */
export function parseSignature(header: string | undefined): Buffer | null {
  const match = header === undefined ? null : SIGNATURE.exec(header);
  return match ? Buffer.from(match[1]!, 'hex') : null;
}

export function parseUnixSeconds(header: string | undefined): number | null {
  return header !== undefined && UNIX_SECONDS.test(header) ? Number(header) : null;
}

/** The bytes a request's signature covers: shape A `<timestamp>.<raw body>`, shape B the raw body. */
export function signedBytes(raw: Buffer, timestamp: string | null): Buffer {
  return timestamp === null ? raw : Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), raw]);
}

export function hmacSha256(secret: string, bytes: Buffer): Buffer {
  return createHmac('sha256', secret).update(bytes).digest();
}

/** Constant-time check of a MAC against every secret that may have signed it (current and rotated-out). */
export function matchesAny(mac: Buffer, secrets: string[], bytes: Buffer): boolean {
  let ok = false;
  // Every secret is tried, so the time taken does not tell which one matched.
  for (const secret of secrets) {
    const expected = hmacSha256(secret, bytes);
    if (expected.length === mac.length && timingSafeEqual(expected, mac)) ok = true;
  }
  return ok;
}

/** Key of a request for replay protection: the hash of what its signature covers. */
export function requestHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A new shared secret: 32 random bytes (Standard Webhooks: 24 to 64), with a prefix secret scanners can find. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** True when `atMs` lies within `windowMs` of `nowMs`, in the past or in the future. */
export function withinWindow(atMs: number, nowMs: number, windowMs: number): boolean {
  return Math.abs(nowMs - atMs) <= windowMs;
}
