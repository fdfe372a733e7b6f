import type { ResourceOutcome } from '../outcome';
import type { Totals } from '../totals';

/**
 * One output format, written as the run goes (a file's resources are never held together): every method
 * returns the text to print next, possibly empty. Files come in input order, each opened by `file`, its
 * resources in order, closed by `endFile` (with `unreadable` when it could not be read, after what was).
 */
export interface Reporter {
  /** Whether the summary line goes to stderr because stdout is for a parser. */
  readonly summaryOnStderr: boolean;
  begin(): string;
  file(name: string): string;
  resource(file: string, outcome: ResourceOutcome): string;
  endFile(file: string, totals: Totals, unreadable?: string): string;
  end(totals: Totals): string;
}

/** Results as lines `severity path: message`. */
export function resultLines(outcome: ResourceOutcome): string[] {
  return outcome.results.map((r) => `${r.severity} ${r.path ? `${r.path}: ` : ''}${r.message}`);
}
