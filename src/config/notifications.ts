import { ConfigError, type Env, readBool, readDurationMs, readInt, readString, readUrl } from './parse';
import type { OutboundPolicy } from '../net/outbound-policy';
import type { SafeSendLimits } from '../net/safe-http';

export interface NotificationsConfig {
  /** Where outbound sends may go (scheme, ports, private addresses): docs/notifications.md "SSRF controls". */
  outbound: OutboundPolicy;
  limits: SafeSendLimits;
  /** NOTIFY_POLL_INTERVAL: how often an organization's dispatcher looks at the event outbox when it found nothing. */
  pollIntervalMs: number;
  /** NOTIFY_DISPATCH_BATCH: events one dispatcher turn reads. */
  batchSize: number;
  /**
   * NOTIFY_RECONCILE_INTERVAL: how often the worker makes sure every organization that needs one has its dispatcher
   * (organizations with channels, preferences or policies, or events within two intervals).
   */
  reconcileIntervalMs: number;
  /** NOTIFY_RETRY_MAX_ATTEMPTS: the most attempts a channel's opt-in retries may ask for. */
  maxAttempts: number;
  throttle: ThrottleConfig;
  /** Channel test sends per organization within NOTIFY_TEST_WINDOW, and the recipients they reach (429 beyond). */
  testSends: { perOrganization: number; recipientsPerOrganization: number; windowMs: number };
}

/** How a target that answered 429, 502, 503 or 504 is left alone (docs/notifications.md "Throttling"). */
export interface ThrottleConfig {
  /** NOTIFY_THROTTLE_DEFAULT: the pause after such an answer without a usable Retry-After. */
  defaultMs: number;
  /** NOTIFY_THROTTLE_MAX: the longest pause a Retry-After may ask for (a longer ask is cut to this). */
  maxMs: number;
  /** NOTIFY_THROTTLE_MAX_WAIT: how long a delivery waits for its channel's pause to end; past it, logged `throttled`. */
  maxWaitMs: number;
}

function readPorts(env: Env, name: string, fallback: string): number[] {
  const raw = readString(env, name, fallback);
  const ports = raw.split(',').map((p) => p.trim());
  if (ports.some((p) => !/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 65535)) {
    throw new ConfigError(`${name} must be a comma-separated list of ports, got "${raw}"`);
  }
  return ports.map(Number);
}

export function loadNotificationsConfig(env: Env): NotificationsConfig {
  return {
    outbound: {
      allowHttp: readBool(env, 'NOTIFY_ALLOW_HTTP', false),
      allowedPorts: readPorts(env, 'NOTIFY_ALLOWED_PORTS', '443,80,8443,8080'),
      allowPrivate: readBool(env, 'NOTIFY_ALLOW_PRIVATE_TARGETS', false),
      smtpPorts: readPorts(env, 'NOTIFY_SMTP_ALLOWED_PORTS', '25,465,587,2525'),
      egressProxy: readUrl(env, 'NOTIFY_EGRESS_PROXY', ['http:']),
    },
    limits: {
      connectTimeoutMs: readDurationMs(env, 'NOTIFY_CONNECT_TIMEOUT', 5_000),
      totalTimeoutMs: readDurationMs(env, 'NOTIFY_TOTAL_TIMEOUT', 15_000),
      responseCapBytes: readInt(env, 'NOTIFY_RESPONSE_CAP_BYTES', 4096, 256, 1024 * 1024),
    },
    pollIntervalMs: readDurationMs(env, 'NOTIFY_POLL_INTERVAL', 2_000),
    batchSize: readInt(env, 'NOTIFY_DISPATCH_BATCH', 100, 1, 1000),
    reconcileIntervalMs: readDurationMs(env, 'NOTIFY_RECONCILE_INTERVAL', 60_000),
    maxAttempts: readInt(env, 'NOTIFY_RETRY_MAX_ATTEMPTS', 5, 1, 10),
    throttle: {
      defaultMs: readDurationMs(env, 'NOTIFY_THROTTLE_DEFAULT', 30_000),
      maxMs: readDurationMs(env, 'NOTIFY_THROTTLE_MAX', 600_000),
      maxWaitMs: readDurationMs(env, 'NOTIFY_THROTTLE_MAX_WAIT', 30_000),
    },
    testSends: {
      perOrganization: readInt(env, 'NOTIFY_TEST_SENDS_PER_ORG', 20, 1, 1_000_000),
      recipientsPerOrganization: readInt(env, 'NOTIFY_TEST_RCPT_PER_ORG', 100, 1, 1_000_000),
      windowMs: readDurationMs(env, 'NOTIFY_TEST_WINDOW', 3_600_000),
    },
  };
}
