import type { Knex } from 'knex';
import { Conflict } from '../errors';

/** A documented limit on how many rows one owner holds (docs/operations.md "Limits"), with the 409 message naming it. */
export interface RowLimit {
  max: number;
  message: string;
}

/**
 * Refuses one more row with 409 naming the limit when `rows` (a query of the owner's rows) already holds `limit.max`.
 * Limits are checked where data enters, so readers read every row and never drop one silently; two concurrent
 * creations may both pass at the edge, which only lets a reader see one row more than the documented figure.
 */
export async function refuseAtLimit(rows: Knex.QueryBuilder, limit: RowLimit): Promise<void> {
  const row = (await rows.clearSelect().clearOrder().count('* as n').first()) as { n: string | number } | undefined;
  if (Number(row?.n ?? 0) >= limit.max) throw new Conflict(limit.message);
}
