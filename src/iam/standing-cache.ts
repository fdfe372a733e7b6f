import type { Db } from '../db/knex';
import type { PgNotifications } from '../db/pg-notifications';

/**
 * A user's standing as each authenticated request reads it (enabled, tokens valid after, session live, membership
 * role), cached for seconds so a read costs one database round trip instead of three (issue 34 item 5).
 *
 * Invalidation, the reason the cache is safe:
 * - every change to `users`, `session_families` or `memberships` notifies channel `auth_standing` with the user's id
 *   at commit (a trigger, migration 20261126070000); every process LISTENs and forgets that user at once;
 * - in the process that writes, a write statement to those tables forgets everything and bypasses the cache until
 *   shortly after, so the next request there never waits on the notification;
 * - a load that raced an invalidation is not stored; while the LISTEN connection is down nothing is cached;
 * - the TTL (AUTH_STANDING_CACHE_TTL) bounds what any missed notification could leave.
 */
export interface StandingCache {
  /** The cached value of `key` for `userId`, or `load()`'s (stored for the TTL when nothing changed meanwhile). */
  read<T>(userId: string, key: string, load: () => Promise<T>): Promise<T>;
  forget(userId: string): void;
  close(): Promise<void>;
}

const CHANNEL = 'auth_standing';
const WRITE = /^\s*(insert\s+into|update|delete\s+from)\s+"?(users|session_families|memberships)"?[\s(]/i;
/**
 * A session's use (`touchFamily` on every token refresh) writes only these columns, and no cached standing reads them:
 * such an update neither holds nor forgets (nor notifies: migration 20261126200000), or any refresh traffic would keep
 * the cache off.
 */
const SESSION_USE = /^\s*update\s+"?session_families"?\s+set\s+(.*?)\s+where\s/is;
const UNREAD_SESSION_COLUMNS = new Set(['last_used_at', 'organization_id']);

/** Whether a statement writes what some cached standing was read from. */
export function changesStanding(sql: string): boolean {
  if (!WRITE.test(sql)) return false;
  const use = SESSION_USE.exec(sql);
  if (!use?.[1]) return true;
  const assignments = use[1].split(',').map((a) => /^\s*"?(\w+)"?\s*=/.exec(a)?.[1]);
  return !assignments.every((column) => column !== undefined && UNREAD_SESSION_COLUMNS.has(column));
}
/** How long the writing process bypasses the cache after a write statement (its transaction commits meanwhile). */
const HOLD_MS = 2000;

interface Entry {
  value: unknown;
  expires: number;
}

export function createStandingCache(opts: { ttlMs: number; db: Db; notifications: PgNotifications }): StandingCache {
  const entries = new Map<string, Map<string, Entry>>();
  let generation = 0;
  let holdUntil = 0;
  let listening = false;
  let unsubscribe = () => undefined as void;

  const forgetAll = () => {
    generation++;
    entries.clear();
  };
  const onQuery = (query: { sql?: string }) => {
    if (query.sql && changesStanding(query.sql)) {
      forgetAll();
      holdUntil = Date.now() + HOLD_MS;
    }
  };

  const cache: StandingCache = {
    async read(userId, key, load) {
      const now = Date.now();
      if (!listening || now < holdUntil) return load();
      const hit = entries.get(userId)?.get(key);
      if (hit && hit.expires > now) return hit.value as Awaited<ReturnType<typeof load>>;
      const started = generation;
      const value = await load();
      if (generation === started && listening) {
        const own = entries.get(userId) ?? new Map<string, Entry>();
        own.set(key, { value, expires: now + opts.ttlMs });
        entries.set(userId, own);
      }
      return value;
    },
    forget(userId) {
      generation++;
      entries.delete(userId);
    },
    close() {
      opts.db.removeListener('query', onQuery);
      unsubscribe();
      listening = false;
      return Promise.resolve();
    },
  };

  if (opts.ttlMs > 0) {
    opts.db.on('query', onQuery);
    // Nothing is cached while notifications may be missed (the connection down), and what was cached is dropped.
    unsubscribe = opts.notifications.subscribe(
      CHANNEL,
      (userId) => userId && cache.forget(userId),
      (up) => {
        listening = up;
        if (!up) forgetAll();
      },
    );
  }
  return cache;
}
