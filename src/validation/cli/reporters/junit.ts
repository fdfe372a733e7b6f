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
 * testsuite per file, a testcase per resource, failing with its errors, skipped with --skip, and its
 * warnings and info as system-out. Written as it goes, so the suites carry no counts (consumers count the
 * testcases); an unreadable file is a testcase in error.
 */
export class JunitReporter implements Reporter {
  readonly summaryOnStderr = true;

  begin(): string {
    return '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="delivery-validate">\n';
  }

  file(name: string): string {
    return `  <testsuite name="${xml(name)}">\n`;
  }

  resource(file: string, outcome: ResourceOutcome): string {
    const open = `    <testcase name="${xml(outcome.resource)}" classname="${xml(file)}" file="${xml(file)}" line="${outcome.line}"`;
    if (outcome.status === 'skipped')
      return `${open}>\n      <skipped message="${xml(outcome.skipReason ?? '')}"/>\n    </testcase>\n`;
    if (outcome.results.length === 0) return `${open}/>\n`;
    const lines = xml(resultLines(outcome).join('\n'));
    const errors = outcome.results.filter((r) => r.severity === 'error');
    const body =
      outcome.status === 'invalid'
        ? `      <failure message="${xml(errors[0]?.message ?? '')}" type="error">${lines}</failure>\n`
        : `      <system-out>${lines}</system-out>\n`;
    return `${open}>\n${body}    </testcase>\n`;
  }

  endFile(file: string, _totals: Totals, unreadable?: string): string {
    const error =
      unreadable === undefined
        ? ''
        : `    <testcase name="read" classname="${xml(file)}" file="${xml(file)}">\n      <error message="${xml(unreadable)}" type="unreadable"/>\n    </testcase>\n`;
    return `${error}  </testsuite>\n`;
  }

  end(): string {
    return '</testsuites>\n';
  }
}
