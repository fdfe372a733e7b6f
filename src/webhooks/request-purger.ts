import type { Db } from '../db/knex';
import { purgeExpiredRequests } from './webhook-request-repository';

/** Drops expired webhook requests at most once per interval, from whichever webhook is called (no extra timer). */
export function createRequestPurger(db: Db, everyMs = 10_000) {
  let last = 0;
  return async (): Promise<void> => {
    if (Date.now() - last < everyMs) return;
    last = Date.now();
    await purgeExpiredRequests(db, new Date());
  };
}
