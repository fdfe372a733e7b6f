import type { Db } from '../db/knex';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { Mailer } from '../mail/mailer';
import type { AttemptResult, SafeSender } from '../net/safe-http';
import { HTTP_ADAPTERS } from './adapters';
import type { ChannelTarget } from './adapters/adapter';
import type { ChannelRecord } from './channel-repository';
import { openChannel } from './channel-secrets';
import { insertAttempt } from './delivery-repository';
import { emailOf } from './email-message';
import type { NotificationMessage } from './message';

export interface DeliveryResult extends AttemptResult {
  attempts: number;
}

export interface ChannelSenderDeps {
  db: Db;
  secrets: SecretBox;
  mailer: Pick<Mailer, 'send'>;
  send: SafeSender;
  /** A target answered 410 Gone: it asked never to be called again (the channel is switched off, audited). */
  onGone(channel: ChannelRecord): Promise<void>;
}

/** The longest Retry-After an opt-in retry waits for (a longer ask waits this long). */
const MAX_RETRY_AFTER_MS = 60_000;

/** Where one channel delivers: each email recipient is its own delivery; an HTTP channel has one, named ''. */
export function recipientsOf(channel: ChannelRecord): string[] {
  return channel.type === 'email' ? ((channel.settings.recipients as string[] | undefined) ?? []) : [''];
}

/** Worth another attempt (when the channel opted in): timeouts, connection errors, 429 and 5xx; never 4xx or refusals. */
function retryable(result: AttemptResult): boolean {
  if (result.status === 'timeout') return true;
  if (result.status !== 'failed' || result.error === 'redirect not followed') return false;
  const code = result.responseStatus;
  return code === null || code === 429 || code >= 500;
}

/** The decrypted target of an HTTP channel (URL from the row or its sealed part, else the service's default). */
export function targetOf(deps: Pick<ChannelSenderDeps, 'secrets'>, channel: ChannelRecord): ChannelTarget {
  const sealed = openChannel(deps.secrets, channel.id, channel.secretSealed);
  const adapter = HTTP_ADAPTERS[channel.type as keyof typeof HTTP_ADAPTERS];
  const url = sealed.url ?? (channel.settings.url as string | undefined) ?? adapter?.defaultUrl ?? '';
  return { url, secret: sealed.secret ?? null, settings: channel.settings };
}

/**
 * Sends one message to one channel and recipient and logs every attempt. One attempt unless the channel opted into
 * bounded retries (exponential backoff from `retryBackoffMs`, each attempt logged): the spec's "one attempt, no
 * retry" is the default, the retries a documented deviation the channel's owner chooses.
 */
export function createChannelSender(
  deps: ChannelSenderDeps,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
) {
  async function attemptOnce(channel: ChannelRecord, message: NotificationMessage, recipient: string) {
    if (channel.type === 'email') {
      const started = Date.now();
      try {
        await deps.mailer.send(emailOf(message, recipient));
        return {
          status: 'success',
          responseStatus: null,
          responseBody: null,
          error: null,
          durationMs: Date.now() - started,
        } as AttemptResult;
      } catch (err) {
        return {
          status: 'failed',
          responseStatus: null,
          responseBody: null,
          error: (err as Error).message,
          durationMs: Date.now() - started,
        } as AttemptResult;
      }
    }
    const adapter = HTTP_ADAPTERS[channel.type];
    const request = adapter.build(message, targetOf(deps, channel), new Date());
    return deps.send(request);
  }

  return async function deliver(
    channel: ChannelRecord,
    message: NotificationMessage,
    opts: { eventId: string | null; recipient: string },
  ): Promise<DeliveryResult> {
    let result: AttemptResult | undefined;
    let attempt = 0;
    while (attempt < channel.retryAttempts) {
      attempt += 1;
      if (attempt > 1) {
        // The target's Retry-After (429/503) when it asks for longer than the backoff, capped at MAX_RETRY_AFTER_MS.
        const backoff = channel.retryBackoffMs * 2 ** (attempt - 2);
        await sleep(Math.max(backoff, Math.min(result?.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)));
      }
      result = await attemptOnce(channel, message, opts.recipient);
      await insertAttempt(deps.db, channel.organizationId, {
        channelId: channel.id,
        event: message.event,
        eventId: opts.eventId,
        recipient: opts.recipient,
        attempt,
        ...result,
      });
      if (result.responseStatus === 410) {
        await deps.onGone(channel);
        break;
      }
      if (!retryable(result)) break;
    }
    return { ...result!, attempts: attempt };
  };
}

export type ChannelDeliver = ReturnType<typeof createChannelSender>;
