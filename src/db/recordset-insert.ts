import type { Queryable } from './knex';

/** A column of a recordset insert: its name and its SQL type. */
export type RecordsetColumn = readonly [name: string, type: string];

/**
 * `INSERT INTO table (columns) SELECT ... FROM jsonb_to_recordset(?)` + `tail` (an ON CONFLICT or RETURNING clause),
 * its one placeholder the rows' JSON (recordsetOf).
 */
export function recordsetInsertSql(table: string, columns: readonly RecordsetColumn[], tail = ''): string {
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  return `INSERT INTO "${table}" (${names}) SELECT ${names} FROM ${recordsetOf(columns)} ${tail}`;
}

/**
 * `jsonb_to_recordset(?::jsonb) AS r(...)` of these columns: the rows of the one placeholder's JSON, a JSON array of
 * objects whose keys name columns (a missing key is null; Dates travel as ISO text, arrays as arrays).
 */
export function recordsetOf(columns: readonly RecordsetColumn[], alias = 'r'): string {
  return `jsonb_to_recordset(?::jsonb) AS ${alias}(${columns.map(([name, type]) => `"${name}" ${type}`).join(', ')})`;
}

/**
 * The recordset insert with every row in one JSON parameter rather than a binding per value (issue 46: building and
 * sending the 17,000 bindings of a generate's 1,000-row statement was about a fifth of its time). Rows are written in
 * their order.
 */
export async function insertRecordset<Row>(
  db: Queryable,
  table: string,
  columns: readonly RecordsetColumn[],
  rows: readonly Record<string, unknown>[],
  tail = '',
): Promise<Row[]> {
  const result = (await db.raw(recordsetInsertSql(table, columns, tail), [JSON.stringify(rows)])) as { rows: Row[] };
  return result.rows;
}
