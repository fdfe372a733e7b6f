import type { ResourceOutcome } from '../outcome';
import type { Totals } from '../totals';
import { resultLines, type Reporter } from './reporter';

/** Characters XML 1.0 cannot hold at all become U+FFFD; markup characters are escaped. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * JUnit XML for CI test reports (GitLab `artifacts:reports:junit`, Jenkins, GitHub test-report actions): a
 * testsuite per file with its counts, a testcase per resource, failing with its errors, skipped with --skip, and
 * its warnings and info as system-out; an unreadable file is a testcase in error. The testcases of one file are
 * held until the file ends (its counts open the suite); files themselves stream. The shape is checked against
 * test/fixtures/junit/junit.xsd.
 */
export class JunitReporter implements Reporter {
  readonly summaryOnStderr = true;
  private cases: string[] = [];
  private counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };

  begin(): string {
    return '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="delivery-validate">\n';
  }

  file(_name: string): string {
    this.cases = [];
    this.counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
    return '';
  }

  resource(file: string, outcome: ResourceOutcome): string {
    this.counts.tests += 1;
    const open = `    <testcase name="${xml(outcome.resource)}" classname="${xml(file)}" file="${xml(file)}" line="${outcome.line}"`;
    if (outcome.status === 'skipped') {
      this.counts.skipped += 1;
      this.cases.push(`${open}>\n      <skipped message="${xml(outcome.skipReason ?? '')}"/>\n    </testcase>\n`);
      return '';
    }
    if (outcome.results.length === 0) {
      this.cases.push(`${open}/>\n`);
      return '';
    }
    const lines = xml(resultLines(outcome).join('\n'));
    const errors = outcome.results.filter((r) => r.severity === 'error');
    if (outcome.status === 'invalid') this.counts.failures += 1;
    const body =
      outcome.status === 'invalid'
        ? `      <failure message="${xml(errors[0]?.message ?? '')}" type="error">${lines}</failure>\n`
        : `      <system-out>${lines}</system-out>\n`;
    this.cases.push(`${open}>\n${body}    </testcase>\n`);
    return '';
  }

  endFile(file: string, _totals: Totals, unreadable?: string): string {
    if (unreadable !== undefined) {
      this.counts.tests += 1;
      this.counts.errors += 1;
      this.cases.push(
        `    <testcase name="read" classname="${xml(file)}" file="${xml(file)}">\n      <error message="${xml(unreadable)}" type="unreadable"/>\n    </testcase>\n`,
      );
    }
    const { tests, failures, errors, skipped } = this.counts;
    const suite = `  <testsuite name="${xml(file)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n`;
    const text = `${suite}${this.cases.join('')}  </testsuite>\n`;
    this.cases = [];
    return text;
  }

  end(): string {
    return '</testsuites>\n';
  }
}
