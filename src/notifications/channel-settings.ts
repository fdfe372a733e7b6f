import { InvalidInput } from '../errors';
import type { Feature } from '../plans/plan-features';
import { HTTP_ADAPTERS } from './adapters';
import type { ChannelRecord, ChannelType } from './channel-repository';
import type { SealedParts } from './channel-secrets';

/** The plan feature of each channel type (spec "Outbound notification channel": Free or Pro). */
export const CHANNEL_FEATURE: Readonly<Record<ChannelType, Feature>> = {
  webhook: 'webhook_channel',
  email: 'email_channel',
  chat: 'chat_channels',
  chat2: 'chat_channels',
  cards: 'chat_channels',
  paging: 'paging_channels',
  alerts: 'paging_channels',
};

/** What a request may say about a channel's target; every field optional so create and update share it. */
export interface TargetInput {
  url?: string;
  secret?: string | null;
  mode?: 'webhook' | 'bot';
  channel?: string;
  recipients?: string[];
}

/** Types whose URL is itself the credential (incoming webhooks): sealed, only the host is shown. */
function urlIsCredential(type: ChannelType, mode: unknown): boolean {
  return type === 'chat2' || type === 'cards' || (type === 'chat' && mode !== 'bot');
}

export interface SplitTarget {
  settings: Record<string, unknown>;
  sealed: SealedParts;
  /** The URL to check against the outbound policy (null for email). */
  url: string | null;
}

/**
 * Splits a channel's target into what is stored in plain (shown in answers) and what is sealed, checking the fields
 * each type needs. `previous` is the stored state on update (fields not sent keep their value).
 */
export function splitTarget(
  type: ChannelType,
  input: TargetInput,
  previous?: { settings: Record<string, unknown>; sealed: SealedParts },
): SplitTarget {
  if (type === 'email') {
    const recipients = input.recipients ?? (previous?.settings.recipients as string[] | undefined);
    if (!recipients || recipients.length === 0) throw new InvalidInput('an email channel needs recipients');
    return { settings: { recipients: [...new Set(recipients.map((r) => r.toLowerCase()))] }, sealed: {}, url: null };
  }
  const adapter = HTTP_ADAPTERS[type];
  const mode = type === 'chat' ? (input.mode ?? previous?.settings.mode ?? 'webhook') : undefined;
  const secret = input.secret === undefined ? previous?.sealed.secret : (input.secret ?? undefined);
  const previousUrl = previous?.sealed.url ?? (previous?.settings.url as string | undefined);
  const url = input.url ?? previousUrl ?? (mode === 'webhook' ? undefined : adapter.defaultUrl);
  if (!url) throw new InvalidInput('url is required for this channel type');
  const needsSecret = adapter.secretRequired || mode === 'bot';
  if (needsSecret && !secret) {
    throw new InvalidInput(type === 'chat' ? 'a bot token (secret) is required' : 'secret (key) is required');
  }
  const settings: Record<string, unknown> = mode ? { mode } : {};
  if (mode === 'bot') {
    const channel = input.channel ?? previous?.settings.channel;
    if (!channel) throw new InvalidInput('channel is required for a bot token');
    settings.channel = channel;
  }
  // A secret travels in a header or URL path (bot tokens): CR, LF and other controls would break or inject into them.
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (secret && /[\u0000-\u001f\u007f]/.test(secret))
    throw new InvalidInput('secret must not contain control characters');
  const sealed: SealedParts = secret ? { secret } : {};
  if (urlIsCredential(type, mode)) {
    sealed.url = url;
    settings.host = hostOf(url);
  } else {
    settings.url = url;
  }
  return { settings, sealed, url };
}

/** The host of a target URL; a URL the WHATWG parser refuses (zone ids, port 65536) answers 400, not 500. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    throw new InvalidInput('target URL is not a valid URL');
  }
}

/** A channel as the API shows it: never a secret, nor a URL that is one. */
export interface ChannelView {
  id: string;
  type: ChannelType;
  name: string;
  projectId: string | null;
  settings: Record<string, unknown>;
  hasSecret: boolean;
  events: string[];
  active: boolean;
  retry: { attempts: number; backoffMs: number };
  /** Set while the target is throttled after a 429/502/503/504 (docs/notifications.md "Throttling"). */
  throttledUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export function viewOf(c: ChannelRecord, hasSecret: boolean): ChannelView {
  return {
    id: c.id,
    type: c.type,
    name: c.name,
    projectId: c.projectId,
    settings: c.settings,
    hasSecret,
    events: c.events,
    active: c.active,
    retry: { attempts: c.retryAttempts, backoffMs: c.retryBackoffMs },
    throttledUntil: c.throttledUntil,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
