import { timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../identity/mfa/secret-box';

/**
 * The signed acknowledge link of an incident: `<incident id>.<HMAC(platform key, incident id)>`. Nothing to store:
 * the signature proves the link came from us, and it works once because the incident's workflow refuses a second
 * acknowledgement (409), like the API.
 */
const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-f]{64})$/;

export function ackToken(box: Pick<SecretBox, 'mac'>, incidentId: string): string {
  return `${incidentId}.${box.mac(`incident-ack:${incidentId}`)}`;
}

/** The incident a token names, or null for anything we did not sign. */
export function incidentOfToken(box: Pick<SecretBox, 'mac'>, token: string): string | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const expected = Buffer.from(box.mac(`incident-ack:${match[1]!}`));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[1]! : null;
}

export function ackLink(box: Pick<SecretBox, 'mac'>, publicUrl: string, incidentId: string): string {
  return `${publicUrl.replace(/\/$/, '')}/api/v2/notifications/incidents/acknowledge?token=${ackToken(box, incidentId)}`;
}
