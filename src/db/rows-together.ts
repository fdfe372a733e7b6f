import type { Knex } from 'knex';
import type { Queryable } from './knex';

/**
 * A select of one repository with what turns its rows into values: run alone (`readRows`) or with others in one
 * statement (`readTogether`). `dates` names its timestamp columns, which a row read through JSON carries as text.
 */
export interface RowsQuery<T> {
  query: Knex.QueryBuilder;
  dates: readonly string[];
  map: (row: Record<string, unknown>) => T;
}

export function rowsQuery<Row, T>(
  query: Knex.QueryBuilder,
  dates: readonly (keyof Row & string)[],
  map: (row: Row) => T,
): RowsQuery<T> {
  return { query, dates, map: map as unknown as (row: Record<string, unknown>) => T };
}

export async function readRows<T>(q: RowsQuery<T>): Promise<T[]> {
  return ((await q.query) as Record<string, unknown>[]).map(q.map);
}

export type RowsOf<P> = { [K in keyof P]: P[K] extends RowsQuery<infer T> ? T[] : never };

/**
 * Several selects in one statement, one round trip and one plan instead of one each (issue 46: what a release or an
 * image update loads before its commit): each becomes a JSON array column, in the order its own ORDER BY gives
 * (PostgreSQL aggregates a sorted subquery's rows in that order, what its documentation offers for ordering an
 * aggregate's input; test/integration/gitops/load-project-together.test.ts checks every list's order). Rows come back
 * as the driver gives them alone: JSON and arrays parsed, timestamps as Dates (millisecond precision, like the
 * driver's).
 */
export async function readTogether<P extends Record<string, RowsQuery<unknown>>>(
  db: Queryable,
  parts: P,
): Promise<RowsOf<P>> {
  const names = Object.keys(parts);
  const columns = names.map(() => `(SELECT coalesce(json_agg(x), '[]'::json) FROM ? AS x) AS ??`);
  const result = (await db.raw(
    `SELECT ${columns.join(', ')}`,
    names.flatMap((name) => [parts[name]!.query, name]),
  )) as { rows: Record<string, Record<string, unknown>[]>[] };
  const [row] = result.rows;
  const read = {} as Record<string, unknown[]>;
  for (const name of names) {
    const { dates, map } = parts[name]!;
    read[name] = row![name]!.map((values) => {
      for (const column of dates) {
        const value = values[column];
        if (typeof value === 'string') values[column] = new Date(value);
      }
      return map(values);
    });
  }
  return read as RowsOf<P>;
}
