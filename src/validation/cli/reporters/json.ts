import type { ResourceOutcome } from '../outcome';
import type { Totals } from '../totals';
import type { Reporter } from './reporter';

/**
 * One JSON object per file per line, the body of POST /api/v2/k8s/validate plus `file` (and `unreadable`
 * for a file that could not be read), written as the results come: `results` before `valid` and `summary`.
 */
export class JsonReporter implements Reporter {
  readonly summaryOnStderr = true;
  private first = true;

  begin(): string {
    return '';
  }

  file(name: string): string {
    this.first = true;
    return `{"file":${JSON.stringify(name)},"results":[`;
  }

  resource(_file: string, outcome: ResourceOutcome): string {
    if (outcome.results.length === 0) return '';
    const text = outcome.results.map((r) => JSON.stringify(r)).join(',');
    const out = this.first ? text : `,${text}`;
    this.first = false;
    return out;
  }

  endFile(_file: string, t: Totals, unreadable?: string): string {
    const summary = { errors: t.errors, warnings: t.warnings, info: t.info };
    const valid = t.invalid === 0 && unreadable === undefined;
    const extra = unreadable === undefined ? '' : `,"unreadable":${JSON.stringify(unreadable)}`;
    return `],"valid":${valid},"summary":${JSON.stringify(summary)}${extra}}\n`;
  }

  end(): string {
    return '';
  }
}
