import { createHash, randomInt } from 'node:crypto';
import type { Db } from '../db/knex';
import { TooManyRequests } from '../errors';

export interface LimitRule {
  /** Counter key, e.g. `login:addr:203.0.113.7` or `login:acct:<hash>`. */
  key: string;
  limit: number;
  /** How many units this hit counts (default 1), e.g. the recipients of one test send. */
  cost?: number;
}

/**
 * Fixed-window counters in PostgreSQL, so every API replica shares them. A hit past the limit still counts: hammering
 * does not reset or shorten the window.
 */
export interface RateLimiter {
  /** Counts one hit on every rule's key; throws TooManyRequests (429 + Retry-After) if any is over its limit. */
  hit(rules: LimitRule[], windowMs: number): Promise<void>;
  /** Forgets a key, e.g. the account's login counter after a password reset. */
  reset(key: string): Promise<void>;
}

/** Account keys hold a hash of the identifier, so counters never store email addresses. */
export function accountKey(scope: string, identifier: string): string {
  return `${scope}:acct:${createHash('sha256').update(identifier).digest('base64url').slice(0, 32)}`;
}

export function addressKey(scope: string, address: string): string {
  return `${scope}:addr:${address}`;
}

/**
 * `housekeeping` runs after about one hit in `sweepEvery`, off the request's path, so stale counters are removed by
 * the traffic that creates them without a scheduler.
 */
export function createRateLimiter(
  db: Db,
  housekeeping?: { sweep: () => Promise<unknown>; sweepEvery: number; onError: (err: unknown) => void },
): RateLimiter {
  return {
    async hit(rules, windowMs) {
      if (housekeeping && randomInt(housekeeping.sweepEvery) === 0) {
        housekeeping.sweep().catch(housekeeping.onError);
      }
      const seconds = windowMs / 1000;
      let retryAfter = 0;
      for (const rule of rules) {
        const result = await db.raw<{ rows: { hits: number; retry_after: string }[] }>(
          `INSERT INTO rate_limit_counters (key, window_start, hits, window_seconds) VALUES (?, now(), ?, ?)
           ON CONFLICT (key) DO UPDATE SET
             window_seconds = EXCLUDED.window_seconds,
             hits = CASE WHEN rate_limit_counters.window_start <= now() - make_interval(secs => ?)
                         THEN EXCLUDED.hits ELSE rate_limit_counters.hits + EXCLUDED.hits END,
             window_start = CASE WHEN rate_limit_counters.window_start <= now() - make_interval(secs => ?)
                                 THEN now() ELSE rate_limit_counters.window_start END
           RETURNING hits, extract(epoch from window_start + make_interval(secs => ?) - now()) AS retry_after`,
          [rule.key, rule.cost ?? 1, seconds, seconds, seconds, seconds],
        );
        const row = result.rows[0];
        if (row && row.hits > rule.limit) retryAfter = Math.max(retryAfter, Number(row.retry_after));
      }
      if (retryAfter > 0) throw new TooManyRequests('too many requests, try again later', retryAfter);
    },
    async reset(key) {
      await db('rate_limit_counters').where({ key }).delete();
    },
  };
}

/** Removes counters whose own window has ended (each row records its window length). */
export function sweepExpiredCounters(db: Db): Promise<number> {
  return db('rate_limit_counters').whereRaw('window_start + make_interval(secs => window_seconds) < now()').delete();
}
