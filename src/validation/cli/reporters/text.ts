import type { ResourceOutcome } from '../outcome';
import { summaryLine, type Totals } from '../totals';
import type { Reporter } from './reporter';

const COLOURS = { red: 31, yellow: 33, cyan: 36, green: 32, dim: 2 } as const;
type Colour = keyof typeof COLOURS;

/** Readable text grouped by file and resource; ANSI colours only when `colour` (stdout is a TTY). */
export class TextReporter implements Reporter {
  readonly summaryOnStderr = false;
  private headerShown = false;

  constructor(private readonly colour: boolean) {}

  private paint(colour: Colour, text: string): string {
    return this.colour ? `\u001b[${COLOURS[colour]}m${text}\u001b[0m` : text;
  }

  begin(): string {
    return '';
  }

  file(): string {
    this.headerShown = false;
    return '';
  }

  resource(file: string, outcome: ResourceOutcome): string {
    if (outcome.status !== 'skipped' && outcome.results.length === 0) return '';
    const header = this.headerShown ? '' : `${file}\n`;
    this.headerShown = true;
    const status = outcome.status === 'skipped' ? this.paint('dim', ` skipped: ${outcome.skipReason ?? ''}`) : '';
    const lines = [`  ${outcome.resource} (line ${outcome.line})${status}`];
    for (const r of outcome.results) {
      const colour: Colour = r.severity === 'error' ? 'red' : r.severity === 'warning' ? 'yellow' : 'cyan';
      lines.push(`    ${this.paint(colour, r.severity.padEnd(7))} ${r.path ? `${r.path}: ` : ''}${r.message}`);
    }
    return `${header}${lines.join('\n')}\n`;
  }

  endFile(file: string, t: Totals, unreadable?: string): string {
    if (unreadable !== undefined) return `${file}: ${this.paint('red', 'UNREADABLE')} (${unreadable})\n`;
    const verdict = t.invalid > 0 ? this.paint('red', 'INVALID') : this.paint('green', 'valid');
    const errors = `${t.errors} error${t.errors === 1 ? '' : 's'}`;
    const warnings = `${t.warnings} warning${t.warnings === 1 ? '' : 's'}`;
    return `${file}: ${verdict} (${errors}, ${warnings}, ${t.info} info)\n`;
  }

  end(totals: Totals): string {
    return `${summaryLine(totals)}\n`;
  }
}
