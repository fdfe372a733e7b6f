import type { CliArgs } from '../cli-args';
import type { Severity, ValidationResult } from '../types';
import type { ResourceReport } from '../validate-manifest';

export type ResourceStatus = 'valid' | 'invalid' | 'skipped';

/** One resource as the CLI reports it, after --strict, --skip, --reject, --ignore-missing-schemas and --severity. */
export interface ResourceOutcome {
  resource: string;
  /** 1-based line where the resource's document starts in its file. */
  line: number;
  status: ResourceStatus;
  /** Why a skipped resource was not validated. */
  skipReason?: string;
  results: ValidationResult[];
}

export type Policy = Pick<CliArgs, 'strict' | 'skip' | 'reject' | 'ignoreMissingSchemas' | 'severity'>;

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** The engine's result for a kind that neither the release nor a CRD describes (checks/api-version.ts). */
export function isMissingSchema(r: ValidationResult): boolean {
  return r.severity === 'error' && r.path === 'kind' && /^kind .+ is not recognised for /.test(r.message);
}

/** The engine's warning for a field the schema does not know (checks/schema-errors.ts). */
export function isUnknownField(r: ValidationResult): boolean {
  return r.severity === 'warning' && r.message.startsWith('unknown field "');
}

export function applyPolicy(report: ResourceReport, line: number, policy: Policy): ResourceOutcome {
  const { resource, kind } = report;
  const skipped = (skipReason: string): ResourceOutcome => ({
    resource,
    line,
    status: 'skipped',
    skipReason,
    results: [],
  });
  if (kind !== undefined && policy.skip.has(kind)) return skipped(`kind ${kind} is skipped (--skip)`);
  if (kind !== undefined && policy.reject.has(kind)) {
    const message = `kind ${kind} is rejected (--reject)`;
    return { resource, line, status: 'invalid', results: [{ severity: 'error', message, path: 'kind', resource }] };
  }
  if (policy.ignoreMissingSchemas && report.results.some(isMissingSchema)) {
    return skipped(`no schema for kind ${kind ?? '<unknown>'} (--ignore-missing-schemas)`);
  }
  const results = report.results
    .map((r): ValidationResult => (policy.strict && isUnknownField(r) ? { ...r, severity: 'error' } : r))
    .filter((r) => RANK[r.severity] <= RANK[policy.severity]);
  return { resource, line, status: results.some((r) => r.severity === 'error') ? 'invalid' : 'valid', results };
}
