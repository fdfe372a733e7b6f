import type { Knex } from 'knex';
import { InvalidInput } from '../errors';

export interface PageRequest {
  cursor?: string;
  limit: number;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 50;

/** Reads `limit` and `cursor` from a validated query string; the bound comes from configuration (ORG_PAGE_MAX). */
export function pageRequestFrom(query: Record<string, unknown>, pageMax: number): PageRequest {
  const raw = query.limit;
  const limit = typeof raw === 'string' ? Number(raw) : Math.min(DEFAULT_PAGE_SIZE, pageMax);
  if (!Number.isInteger(limit) || limit < 1 || limit > pageMax) {
    throw new InvalidInput(`limit must be between 1 and ${pageMax}`);
  }
  const cursor = typeof query.cursor === 'string' ? query.cursor : undefined;
  return { limit, cursor };
}

function encodeCursor(key: readonly [string, string]): string {
  return Buffer.from(JSON.stringify(['k1', key[0], key[1]])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value[0] === 'k1') {
      const [, a, b] = value as unknown[];
      // Both keys reach PostgreSQL as text, which cannot hold a NUL character.
      if (typeof a === 'string' && typeof b === 'string' && !`${a}${b}`.includes('\u0000')) return [a, b];
    }
  } catch {
    // fall through: a cursor we did not make
  }
  throw new InvalidInput('invalid cursor');
}

/**
 * Keyset pagination over two text sort keys, the second unique (an id) so pages never skip or repeat rows while
 * others are inserted. Both keys are compared as text, so uuid columns sort the same way in ORDER BY and WHERE
 * (a timestamp key sorts right as text in its ISO form: `to_char` it, or use a column whose text form sorts).
 */
export async function keysetPage<Row, Item>(
  query: Knex.QueryBuilder,
  keys: readonly [string, string],
  page: PageRequest,
  keyOf: (row: Row) => readonly [string, string],
  toItem: (row: Row) => Item,
  order: 'asc' | 'desc' = 'asc',
): Promise<Page<Item>> {
  const { after, take } = keysetParams(page);
  const rows = (await keysetOrder(query, keys, after, take, order)) as Row[];
  return keysetResult(rows, page, keyOf, toItem);
}

/** The keys a page starts after (from its cursor) and how many rows to read (one more than the page, to know). */
export function keysetParams(page: PageRequest): { after: [string, string] | undefined; take: number } {
  return { after: page.cursor === undefined ? undefined : decodeCursor(page.cursor), take: page.limit + 1 };
}

/** `keysetPage`'s condition, order and limit, added to `query` (for a statement compiled once: src/db/compiled-statements.ts). */
export function keysetOrder(
  query: Knex.QueryBuilder,
  keys: readonly [string, string],
  after: readonly [string, string] | undefined,
  take: number,
  order: 'asc' | 'desc' = 'asc',
): Knex.QueryBuilder {
  if (after !== undefined) {
    void query.whereRaw(`(??::text, ??::text) ${order === 'asc' ? '>' : '<'} (?, ?)`, [
      keys[0],
      keys[1],
      after[0],
      after[1],
    ]);
  }
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  return query.orderByRaw(`??::text ${direction}, ??::text ${direction}`, [keys[0], keys[1]]).limit(take);
}

/** The page of `rows` read with `keysetOrder`. */
export function keysetResult<Row, Item>(
  rows: Row[],
  page: PageRequest,
  keyOf: (row: Row) => readonly [string, string],
  toItem: (row: Row) => Item,
): Page<Item> {
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    items: items.map(toItem),
    nextCursor: rows.length > page.limit && last ? encodeCursor(keyOf(last)) : null,
  };
}
