import type { Queryable } from '../db/knex';
import type { PgNotifications } from '../db/pg-notifications';
import { REQUESTS_FINISHED_CHANNEL, finishedOf, type WebhookRequestRow } from './webhook-request-repository';
import { hearFinished } from './finished-here';

export type RequestOutcomeWatcher = ReturnType<typeof createRequestOutcomeWatcher>;

/**
 * Waits for request rows to be finished by whichever worker runs their workflow: one query for all the requests this
 * API process is waiting on (never one per request, so a burst of waiting requests does not take the database pool
 * from everything else), run at once when a worker's transaction that finished rows notifies
 * (REQUESTS_FINISHED_CHANNEL), and every `intervalMs` besides, for a notification missed while the connection was down.
 * Rows finished in this process are answered as they were finished, with no read (finished-here.ts), while any wait.
 * The look every `intervalMs` is only that safety net now (issue 46: every 50 ms it was half of these reads, most of
 * them before the commit they waited for had landed).
 */
export function createRequestOutcomeWatcher(db: Queryable, notifications: PgNotifications, intervalMs = 1_000) {
  const waiters = new Map<string, Set<(row: WebhookRequestRow) => void>>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  const settle = (row: WebhookRequestRow) => {
    for (const done of waiters.get(row.id) ?? []) done(row);
    waiters.delete(row.id);
    if (waiters.size === 0) stopHearing();
  };
  let stopHearing: () => void = () => undefined;
  const hear = () => {
    if (waiters.size === 0) stopHearing = hearFinished((rows) => rows.forEach(settle));
  };

  function schedule() {
    if (timer || running || waiters.size === 0) return;
    timer = setTimeout(() => void tick(), intervalMs);
    timer.unref();
  }

  /** A notification: look now (or right after the look in progress, which may have run before the rows committed). */
  let again = false;
  let subscribed = false;
  const onFinished = () => {
    if (waiters.size === 0) return;
    if (running) again = true;
    else {
      if (timer) clearTimeout(timer);
      void tick();
    }
  };

  async function tick() {
    timer = null;
    again = false;
    running = true;
    try {
      for (const row of await finishedOf(db, [...waiters.keys()])) settle(row);
    } catch {
      // The database is unreachable for a moment: the next tick looks again, the waits end at their timeouts.
    } finally {
      running = false;
      if (again && waiters.size > 0) void tick();
      else schedule();
    }
  }

  return {
    /** The row once it is finished (committed or failed), or null when `timeoutMs` passes first. */
    wait(id: string, timeoutMs: number): Promise<WebhookRequestRow | null> {
      // Heard from the first wait on (a process that never waits opens no connection for it).
      if (!subscribed) notifications.subscribe(REQUESTS_FINISHED_CHANNEL, onFinished);
      subscribed = true;
      return new Promise((resolve) => {
        hear();
        const mine = waiters.get(id) ?? new Set();
        waiters.set(id, mine);
        const done = (row: WebhookRequestRow) => {
          clearTimeout(timeout);
          resolve(row);
        };
        const timeout = setTimeout(() => {
          mine.delete(done);
          if (mine.size === 0) waiters.delete(id);
          if (waiters.size === 0) stopHearing();
          resolve(null);
        }, timeoutMs);
        mine.add(done);
        schedule();
      });
    },
  };
}
