import path from 'node:path';
import type { ResourceOutcome } from '../outcome';
import type { Totals } from '../totals';
import type { Severity } from '../../types';
import type { Reporter } from './reporter';

const RULES: { id: string; severity: Severity; level: 'error' | 'warning' | 'note'; text: string }[] = [
  { id: 'k8s-error', severity: 'error', level: 'error', text: 'The API server would refuse this resource' },
  { id: 'k8s-warning', severity: 'warning', level: 'warning', text: 'Deprecated API or field unknown to the schema' },
  { id: 'k8s-info', severity: 'info', level: 'note', text: 'Best-practice advice' },
];

/** A file name as a SARIF URI reference (relative names stay relative to the working directory). */
function uri(file: string): string {
  return file.split(path.sep).map(encodeURIComponent).join('/');
}

/**
 * SARIF 2.1.0 for code-scanning annotations (GitHub `upload-sarif`, GitLab): one run, a result per finding
 * located at the line its document starts, rules by severity. Written as it goes; unreadable files become
 * tool execution notifications, and the totals the run's properties.
 */
export class SarifReporter implements Reporter {
  readonly summaryOnStderr = true;
  private first = true;
  private readonly notifications: object[] = [];

  constructor(private readonly toolVersion: string) {}

  begin(): string {
    const driver = {
      name: 'delivery-validate',
      version: this.toolVersion,
      rules: RULES.map((r) => ({
        id: r.id,
        shortDescription: { text: r.text },
        defaultConfiguration: { level: r.level },
      })),
    };
    return `{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":${JSON.stringify(driver)}},"results":[\n`;
  }

  file(): string {
    return '';
  }

  resource(file: string, outcome: ResourceOutcome): string {
    const out = outcome.results.map((r) => {
      const ruleIndex = RULES.findIndex((rule) => rule.severity === r.severity);
      const rule = RULES[ruleIndex];
      const where = r.path ? `${outcome.resource} ${r.path}` : outcome.resource;
      return JSON.stringify({
        ruleId: rule?.id,
        ruleIndex,
        level: rule?.level,
        message: { text: `${where}: ${r.message}` },
        locations: [
          {
            physicalLocation: { artifactLocation: { uri: uri(file) }, region: { startLine: outcome.line } },
            logicalLocations: [{ fullyQualifiedName: r.path ? `${outcome.resource}.${r.path}` : outcome.resource }],
          },
        ],
      });
    });
    if (out.length === 0) return '';
    const text = out.join(',\n');
    const written = this.first ? text : `,\n${text}`;
    this.first = false;
    return written;
  }

  endFile(file: string, _totals: Totals, unreadable?: string): string {
    if (unreadable !== undefined) {
      this.notifications.push({
        level: 'error',
        message: { text: `${file} could not be read: ${unreadable}` },
        locations: [{ physicalLocation: { artifactLocation: { uri: uri(file) } } }],
      });
    }
    return '';
  }

  end(totals: Totals): string {
    const invocation = {
      executionSuccessful: totals.unreadable === 0,
      toolExecutionNotifications: this.notifications,
    };
    return `\n],"invocations":[${JSON.stringify(invocation)}],"properties":{"summary":${JSON.stringify(totals)}}}]}\n`;
  }
}
