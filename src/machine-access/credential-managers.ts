import { Forbidden } from '../errors';
import type { OrgCaller } from '../iam/caller';

/**
 * Keys and tokens are minted and revoked by people only: a machine credential that could mint another could shed
 * its own restriction (a token limited to `org.service-accounts.**` minting a `**` token).
 */
export function requireSignedInUser(caller: OrgCaller): void {
  if (caller.principal.kind !== 'user') throw new Forbidden('API keys and tokens are managed by signed-in users only');
}
