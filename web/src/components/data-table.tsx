import type { ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** The row's header cell (read first by screen readers). */
  rowHeader?: boolean;
}

/** A labelled table of rows; the column headers are the reading order of each row. */
export function DataTable<T>(props: { label: string; rows: T[]; columns: Column<T>[]; rowKey: (row: T) => string }) {
  return (
    <table className="list" aria-label={props.label}>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th key={c.header} scope="col">
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={props.rowKey(row)}>
            {props.columns.map((c) =>
              c.rowHeader ? (
                <th key={c.header} scope="row">
                  {c.cell(row)}
                </th>
              ) : (
                <td key={c.header}>{c.cell(row)}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An instant in the reader's locale, or a dash. */
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
