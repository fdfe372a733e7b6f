/**
 * The settings a watch test's platform runs with: the test registry (on 127.0.0.1, plain HTTP, at `port`) allowed as
 * a poll target, and polls and backoffs of a few hundred milliseconds instead of minutes.
 */
export function watchEnv(port: string): Record<string, string> {
  return {
    NOTIFY_ALLOW_HTTP: 'true',
    NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
    NOTIFY_ALLOWED_PORTS: port,
    WATCH_POLL_MIN_INTERVAL: '100ms',
    WATCH_POLL_INTERVAL: '500ms',
    WATCH_BACKOFF_INITIAL: '400ms',
    WATCH_BACKOFF_MAX: '1s',
  };
}
