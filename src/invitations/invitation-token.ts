import { createHash, randomBytes } from 'node:crypto';
import type { SecretBox } from '../identity/mfa/secret-box';

/** 256 bits from the CSPRNG, URL-safe: the token travels in a link. */
export function newInvitationToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are looked up by SHA-256: at 256 bits of entropy a plain hash is enough (docs/security.md KEY-1). */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Shape check before any lookup, so arbitrary path strings never reach the database. */
export function isInvitationTokenShape(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** The token waits for its mail sealed, bound to its invitation: a sealed token copied to another row does not open. */
export function sealInvitationToken(secrets: SecretBox, token: string, invitationId: string): string {
  return secrets.seal(token, `invitation:${invitationId}`);
}

export function openInvitationToken(secrets: SecretBox, sealed: string, invitationId: string): string {
  return secrets.open(sealed, `invitation:${invitationId}`);
}
