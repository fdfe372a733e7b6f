import type { ResourceOutcome } from './outcome';

/** Counts of one file, or of the whole run. */
export interface Totals {
  files: number;
  /** Inputs that could not be read (exit status 3). */
  unreadable: number;
  resources: number;
  invalid: number;
  skipped: number;
  errors: number;
  warnings: number;
  info: number;
}

export function emptyTotals(): Totals {
  return { files: 0, unreadable: 0, resources: 0, invalid: 0, skipped: 0, errors: 0, warnings: 0, info: 0 };
}

export function countOutcome(totals: Totals, outcome: ResourceOutcome): void {
  totals.resources++;
  if (outcome.status === 'invalid') totals.invalid++;
  else if (outcome.status === 'skipped') totals.skipped++;
  for (const r of outcome.results) {
    if (r.severity === 'error') totals.errors++;
    else if (r.severity === 'warning') totals.warnings++;
    else totals.info++;
  }
}

export function addTotals(into: Totals, from: Totals): void {
  for (const key of Object.keys(into) as (keyof Totals)[]) into[key] += from[key];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The summary line every format ends with (on stdout for text and TAP, on stderr for the others). */
export function summaryLine(t: Totals): string {
  const valid = t.resources - t.invalid - t.skipped;
  const unreadable = t.unreadable > 0 ? `, ${t.unreadable} unreadable` : '';
  return (
    `Summary: ${plural(t.files, 'file')}${unreadable}, ${plural(t.resources, 'resource')} ` +
    `(${valid} valid, ${t.invalid} invalid, ${t.skipped} skipped); ` +
    `${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')}, ${t.info} info`
  );
}
