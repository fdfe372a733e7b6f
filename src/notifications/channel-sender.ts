import type { ThrottleConfig } from '../config/notifications';
import type { Db } from '../db/knex';
import type { SecretBox } from '../identity/mfa/secret-box';
import { TargetRefused } from '../net/outbound-policy';
import type { AttemptResult, SafeSender } from '../net/safe-http';
import { HTTP_ADAPTERS } from './adapters';
import type { ChannelTarget } from './adapters/adapter';
import { throttleChannel, type ChannelRecord } from './channel-repository';
import { openChannel } from './channel-secrets';
import { throttleDecision, throttlePauseMs } from './channel-throttle';
import { insertAttempt } from './delivery-repository';
import { emailOf } from './email-message';
import type { NotificationMessage } from './message';
import type { OrgMailer } from './org-mailer';

export interface DeliveryResult extends AttemptResult {
  attempts: number;
}

export interface ChannelSenderDeps {
  db: Db;
  secrets: SecretBox;
  mail: Pick<OrgMailer, 'send'>;
  send: SafeSender;
  throttle: ThrottleConfig;
  /** A target answered 410 Gone: it asked never to be called again (the channel is switched off, audited). */
  onGone(channel: ChannelRecord): Promise<void>;
}

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
 * retry" is the default, the retries a documented deviation the channel's owner chooses. A 429, 502, 503 or 504
 * throttles the channel across deliveries (channel-throttle.ts): later sends, this delivery's retries included, wait
 * out a short pause or are logged `throttled` without reaching the target. Only this channel's deliveries wait.
 */
export function createChannelSender(
  deps: ChannelSenderDeps,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
) {
  async function attemptOnce(channel: ChannelRecord, message: NotificationMessage, recipient: string) {
    if (channel.type === 'email') {
      const started = Date.now();
      try {
        await deps.mail.send(channel.organizationId, emailOf(message, recipient));
        return {
          status: 'success',
          responseStatus: null,
          responseBody: null,
          error: null,
          durationMs: Date.now() - started,
        } as AttemptResult;
      } catch (err) {
        return {
          status: err instanceof TargetRefused ? 'refused' : 'failed',
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

  /** `mayWait: false` (the API's test send) never waits for an earlier throttle: it is logged `throttled` at once. */
  return async function deliver(
    channel: ChannelRecord,
    message: NotificationMessage,
    opts: { eventId: string | null; recipient: string; mayWait?: boolean },
  ): Promise<DeliveryResult> {
    let result: AttemptResult | undefined;
    let attempt = 0;
    let throttledUntil = channel.throttledUntil === null ? null : Date.parse(channel.throttledUntil);
    const log = (r: AttemptResult) =>
      insertAttempt(deps.db, channel.organizationId, {
        channelId: channel.id,
        event: message.event,
        eventId: opts.eventId,
        recipient: opts.recipient,
        attempt,
        ...r,
      });
    while (attempt < channel.retryAttempts) {
      attempt += 1;
      if (attempt > 1) await sleep(channel.retryBackoffMs * 2 ** (attempt - 2));
      // A caller that may not wait (the API's test send) still lets its own retries wait for the target's pause.
      const mayWait = (opts.mayWait ?? true) || attempt > 1;
      const decision = throttleDecision(throttledUntil, Date.now(), deps.throttle, mayWait);
      if (decision && 'skip' in decision) {
        result = {
          status: 'throttled',
          responseStatus: null,
          responseBody: null,
          error: `target throttled until ${new Date(throttledUntil!).toISOString()}`,
          durationMs: 0,
        };
        await log(result);
        break;
      }
      if (decision) await sleep(decision.waitMs);
      result = await attemptOnce(channel, message, opts.recipient);
      await log(result);
      const pauseMs = throttlePauseMs(result, deps.throttle);
      if (pauseMs !== null) {
        throttledUntil = Date.now() + pauseMs;
        await throttleChannel(deps.db, channel.id, new Date(throttledUntil));
      }
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
