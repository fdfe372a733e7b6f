import type { ResourceOutcome } from '../outcome';
import { summaryLine, type Totals } from '../totals';
import type { Reporter } from './reporter';

/** A test point description: `#` would start a directive, a newline would end the line. */
function description(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/#/g, '\\#')
    .replace(/[\r\n]+/g, ' ');
}

/**
 * TAP version 14: a test point per resource (`not ok` with its errors, `# SKIP` with --skip), its results
 * in a YAML diagnostic block, the plan at the end, the summary line as a comment.
 */
export class TapReporter implements Reporter {
  readonly summaryOnStderr = false;
  private count = 0;

  begin(): string {
    return 'TAP version 14\n';
  }

  file(): string {
    return '';
  }

  resource(file: string, outcome: ResourceOutcome): string {
    const n = ++this.count;
    const name = description(`${file}: ${outcome.resource}`);
    if (outcome.status === 'skipped') return `ok ${n} - ${name} # SKIP ${description(outcome.skipReason ?? '')}\n`;
    const head = `${outcome.status === 'invalid' ? 'not ok' : 'ok'} ${n} - ${name}\n`;
    if (outcome.results.length === 0) return head;
    const results = outcome.results.map(
      (r) =>
        `    - severity: ${r.severity}\n      path: ${JSON.stringify(r.path)}\n      message: ${JSON.stringify(r.message)}\n`,
    );
    return `${head}  ---\n  file: ${JSON.stringify(file)}\n  line: ${outcome.line}\n  results:\n${results.join('')}  ...\n`;
  }

  endFile(file: string, _totals: Totals, unreadable?: string): string {
    if (unreadable === undefined) return '';
    const n = ++this.count;
    return `not ok ${n} - ${description(file)}\n  ---\n  message: ${JSON.stringify(`could not be read: ${unreadable}`)}\n  ...\n`;
  }

  end(totals: Totals): string {
    return `1..${this.count}\n# ${summaryLine(totals)}\n`;
  }
}
