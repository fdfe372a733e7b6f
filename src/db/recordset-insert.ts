import type { Queryable } from './knex';

/** A column of a recordset insert: its name and its SQL type. */
export type RecordsetColumn = readonly [name: string, type: string];

/**
 * `INSERT INTO table (columns) SELECT ... FROM jsonb_to_recordset($1)` + `tail` (an ON CONFLICT or RETURNING clause):
 * every row in one JSON parameter rather than a binding per value (issue 46: building and sending the 17,000 bindings
 * of a generate's 1,000-row statement was about a fifth of its time). Rows are written in their order; each row's keys
 * name columns (a missing key is null); Dates travel as ISO text, arrays as arrays.
 */
export async function insertRecordset<Row>(
  db: Queryable,
  table: string,
  columns: readonly RecordsetColumn[],
  rows: readonly Record<string, unknown>[],
  tail = '',
): Promise<Row[]> {
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const types = columns.map(([name, type]) => `"${name}" ${type}`).join(', ');
  const sql = `INSERT INTO "${table}" (${names}) SELECT ${names} FROM jsonb_to_recordset(?::jsonb) AS r(${types}) ${tail}`;
  const result = (await db.raw(sql, [JSON.stringify(rows)])) as { rows: Row[] };
  return result.rows;
}
