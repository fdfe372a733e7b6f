import type { Knex } from 'knex';
import { Conflict } from '../errors';
import { isUniqueViolation } from './knex';

/** Runs an UPDATE that may break a unique constraint (a rename onto a sibling): 409 with `conflict`; false when no row. */
export async function updateUnique(update: Knex.QueryBuilder, conflict: string): Promise<boolean> {
  try {
    return ((await update) as number) > 0;
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(conflict);
    throw err;
  }
}
