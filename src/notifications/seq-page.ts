import type { Knex } from 'knex';
import { InvalidInput } from '../errors';
import type { Page, PageRequest } from '../db/pagination';

/**
 * Newest-first pages over a `seq` column (delivery log, in-app notifications): the cursor is the last seq seen, so
 * pages stay stable while new rows arrive at the top.
 */
export async function newestFirst<Row extends { seq: string }, Item>(
  query: Knex.QueryBuilder,
  page: PageRequest,
  toItem: (row: Row) => Item,
): Promise<Page<Item>> {
  if (page.cursor !== undefined) {
    const seq = /^n:(\d{1,18})$/.exec(Buffer.from(page.cursor, 'base64url').toString('utf8'))?.[1];
    if (seq === undefined) throw new InvalidInput('invalid cursor');
    void query.where('seq', '<', seq);
  }
  const rows = (await query.orderBy('seq', 'desc').limit(page.limit + 1)) as Row[];
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    items: items.map(toItem),
    nextCursor: rows.length > page.limit && last ? Buffer.from(`n:${last.seq}`).toString('base64url') : null,
  };
}
