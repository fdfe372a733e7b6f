import { dump } from 'js-yaml';
import { styleText } from 'node:util';

export const OUTPUT_FORMATS = ['table', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A column of a table: its heading and how to read it from a row. */
export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

/** Prints rows as an aligned table, or the raw answer as JSON or YAML. */
export function printList<T>(
  out: NodeJS.WritableStream,
  format: OutputFormat,
  rows: T[],
  columns: Column<T>[],
  raw: unknown = rows,
): void {
  if (format !== 'table') return printValue(out, format, raw);
  if (rows.length === 0) {
    out.write('(none)\n');
    return;
  }
  const cells = rows.map((row) => columns.map((c) => cellText(c.value(row))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  out.write(`${line(columns.map((c) => c.header.toUpperCase()))}\n`);
  for (const row of cells) out.write(`${line(row)}\n`);
}

/** Prints one object: JSON/YAML as is, or `key: value` lines for the table format. */
export function printValue(out: NodeJS.WritableStream, format: OutputFormat, value: unknown): void {
  if (format === 'json') out.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (format === 'yaml') out.write(dump(value, { lineWidth: -1, noRefs: true }));
  else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) out.write(`${key}: ${cellText(v)}\n`);
  } else out.write(`${cellText(value)}\n`);
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

type Style = Parameters<typeof styleText>[0];

/** Colours only on a terminal, and never when NO_COLOR is set. */
export function paint(stream: { isTTY?: boolean }, style: Style, text: string, env = process.env): string {
  return stream.isTTY && !env.NO_COLOR ? styleText(style, text) : text;
}

/**
 * What a command did that answers nothing (a deletion, a context change): a line on standard error for people; with
 * `-o json` or `-o yaml`, `value` on standard output, so every subcommand prints one parseable document.
 */
export function acknowledge(
  rt: { out: NodeJS.WritableStream; err: NodeJS.WritableStream; output: OutputFormat },
  message: string,
  value: Record<string, unknown>,
): void {
  if (rt.output === 'table') rt.err.write(`${message}\n`);
  else printValue(rt.out, rt.output, value);
}
