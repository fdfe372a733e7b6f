import type { Knex } from 'knex';
import type { Queryable } from './knex';

/**
 * A timestamptz column spelled by PostgreSQL the way `Date.prototype.toISOString` spells it (UTC, milliseconds cut,
 * not rounded, like the Date node-postgres would parse): a hot listing then neither parses a Date per column nor
 * prints it back (issue 34 item 5). NULL stays NULL.
 */
export function isoTimestamp(db: Queryable, column: string, alias: string): Knex.Raw {
  return db.raw(`to_char(?? at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ??`, [column, alias]);
}

/** A timestamp read either way (a Date, or already spelled by isoTimestamp) as its ISO text. */
export function isoText(value: Date | string): string {
  return typeof value === 'string' ? value : value.toISOString();
}
