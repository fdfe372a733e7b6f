import type { Db } from '../db/knex';
import { TooManyRequests } from '../errors';

export interface BackoffPolicy {
  /** Consecutive failures after which each further failure blocks the key for 1 s, 2 s, 4 s, ... */
  delayAfter: number;
  /** Consecutive failures at which the key stays blocked until cleared (password reset or a successful login). */
  lockAfter: number;
  maxDelayMs: number;
}

/**
 * Per-account consecutive-failure counting with exponential delay and a hard cap (NIST 800-63B 5.2.2: at most 100
 * consecutive failures). Rotating client addresses does not help an attacker, and the real user can always get out
 * through a password reset, which clears the counter.
 */
export interface LoginBackoff {
  /** Throws TooManyRequests while the key is blocked; call before any password hashing. */
  check(key: string): Promise<void>;
  recordFailure(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

const LOCKED_RETRY_AFTER_SECONDS = 3600;

export function createLoginBackoff(db: Db, policy: BackoffPolicy): LoginBackoff {
  return {
    async check(key) {
      const row = (await db('login_failures')
        .where({ key })
        .first('consecutive', db.raw('extract(epoch from blocked_until - now()) as remaining'))) as
        { consecutive: number; remaining: string | null } | undefined;
      if (!row) return;
      if (row.consecutive >= policy.lockAfter) {
        throw new TooManyRequests(
          'too many failed sign-in attempts; reset your password to unlock the account',
          LOCKED_RETRY_AFTER_SECONDS,
        );
      }
      const remaining = row.remaining === null ? 0 : Number(row.remaining);
      if (remaining > 0) throw new TooManyRequests('too many failed sign-in attempts, try again later', remaining);
    },
    async recordFailure(key) {
      await db.raw(
        `INSERT INTO login_failures (key, consecutive, last_failure_at, blocked_until) VALUES (?, 1, now(), NULL)
         ON CONFLICT (key) DO UPDATE SET consecutive = login_failures.consecutive + 1, last_failure_at = now()`,
        [key],
      );
      await db.raw(
        `UPDATE login_failures
            SET blocked_until = now() + make_interval(secs => least(power(2, consecutive - ?), ?))
          WHERE key = ? AND consecutive >= ?`,
        [policy.delayAfter, policy.maxDelayMs / 1000, key, policy.delayAfter],
      );
    },
    async clear(key) {
      await db('login_failures').where({ key }).delete();
    },
  };
}

/** Removes back-off counters idle for `idleDays`, except locks (at or above `lockAfter`), which only a reset lifts. */
export function sweepStaleLoginFailures(db: Db, lockAfter: number, idleDays = 30): Promise<number> {
  return db('login_failures')
    .where('last_failure_at', '<', db.raw('now() - make_interval(days => ?)', [idleDays]))
    .where('consecutive', '<', lockAfter)
    .delete();
}
