import type { NotificationMessage } from '../message';

/** The HTTP request one adapter builds for one message (the safe sender sends it). */
export interface HttpDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A channel's decrypted target: the URL (several services embed their credential in it) and the secret or key. */
export interface ChannelTarget {
  url: string;
  secret: string | null;
  settings: Record<string, unknown>;
}

export interface HttpAdapter {
  /** The service's default endpoint when the channel gives no URL (events API, alert API, bot API). */
  defaultUrl?: string;
  /** Whether the channel must carry a secret (integration key, API key, bot token). */
  secretRequired: boolean;
  build(message: NotificationMessage, target: ChannelTarget, now: Date): HttpDelivery;
}

export const JSON_HEADERS = { 'content-type': 'application/json', 'user-agent': 'delivery-platform-notifications/1' };
