import type { Knex } from 'knex';
import type { Queryable } from '../db/knex';

/** Rows paged by an instant and their id (`keysetPage` compares both keys as text). */
export interface TimeKey {
  time_key: string;
}

export const TIME_KEYS = ['k.time_key', 'k.id'] as const;

/**
 * Wraps `rows` so the instant column becomes a fixed-width UTC text key (`time_key`): compared as text it sorts like
 * the instant, and the cursor carries exactly the text PostgreSQL compares (a timestamptz cast to text would follow the
 * session's time zone and format).
 */
export function chronological(db: Queryable, rows: Knex.QueryBuilder, columns: (string | Knex.Raw)[], instant: string) {
  const keyed = rows.select([
    ...columns,
    db.raw(`to_char(?? AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS time_key`, [instant]),
  ]);
  return db.from(keyed.as('k')).select('k.*');
}
