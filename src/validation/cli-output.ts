import type { ValidationResponse, ValidationResult } from './types';

export interface FileReport extends ValidationResponse {
  file: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function line(r: ValidationResult): string {
  const where = r.path ? `${r.path}: ` : '';
  return `  ${r.severity.padEnd(7)} ${r.resource}  ${where}${r.message}`;
}

export function formatText(report: FileReport): string {
  const { errors, warnings, info } = report.summary;
  const head = `${report.file}: ${report.valid ? 'valid' : 'INVALID'} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${info} info)`;
  return [head, ...report.results.map(line)].join('\n');
}

export function formatJson(report: FileReport): string {
  const { file, valid, results, summary } = report;
  return JSON.stringify({ file, valid, results, summary });
}
