import type { SecretBox } from '../identity/mfa/secret-box';

/** What a channel keeps sealed: the URL where it embeds a credential, and the secret, key or token. */
export interface SealedParts {
  url?: string;
  secret?: string;
}

/** Bound to the channel id: a sealed value copied onto another channel's row does not open. */
const aad = (channelId: string) => `notification-channel:${channelId}`;

export function sealChannel(box: SecretBox, channelId: string, parts: SealedParts): string | null {
  if (parts.url === undefined && parts.secret === undefined) return null;
  return box.seal(JSON.stringify(parts), aad(channelId));
}

export function openChannel(box: SecretBox, channelId: string, sealed: string | null): SealedParts {
  return sealed === null ? {} : (JSON.parse(box.open(sealed, aad(channelId))) as SealedParts);
}
