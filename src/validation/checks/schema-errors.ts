import type { ErrorObject } from 'ajv';
import { formatPath, pointerToSegments, valueAt, type PathSegment } from '../field-path';
import type { Severity, ValidationResult } from '../types';

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A value as results quote it: JSON, cut at 80 characters. */
export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function param(error: ErrorObject, name: string): unknown {
  return (error.params as Record<string, unknown>)[name];
}

/** Severity, field path and wording of one ajv error, in the vocabulary of the spec's checks. */
function describe(error: ErrorObject, data: unknown): { severity: Severity; segments: PathSegment[]; message: string } {
  const segments = pointerToSegments(error.instancePath, data);
  const value = valueAt(data, segments);
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(param(error, 'additionalProperty'));
      return { severity: 'warning', segments: [...segments, field], message: `unknown field "${field}"` };
    }
    case 'required': {
      const field = String(param(error, 'missingProperty'));
      return { severity: 'error', segments: [...segments, field], message: `required field "${field}" is missing` };
    }
    case 'type': {
      const expected = param(error, 'type');
      const wanted = Array.isArray(expected) ? expected.join(' or ') : String(expected);
      return {
        severity: 'error',
        segments,
        message: `invalid type: expected ${wanted}, got ${typeName(value)} ${quote(value)}`,
      };
    }
    case 'enum': {
      const allowed = (param(error, 'allowedValues') as unknown[]).filter((v) => v !== '').map(String);
      return {
        severity: 'error',
        segments,
        message: `unsupported value ${quote(value)}: must be one of ${allowed.join(', ')}`,
      };
    }
    case 'format':
      return {
        severity: 'error',
        segments,
        message: `invalid ${String(param(error, 'format'))} value ${quote(value)}`,
      };
    case 'minLength':
      if (param(error, 'limit') === 1) return { severity: 'error', segments, message: 'must not be empty' };
      break;
    case 'anyOf':
    case 'oneOf':
      return { severity: 'error', segments, message: `value ${quote(value)} matches none of the allowed schemas` };
  }
  return { severity: 'error', segments, message: error.message ?? `fails ${error.keyword}` };
}

/** Errors inside one branch of an anyOf/oneOf are noise next to the anyOf error itself. */
const BRANCH = /\/(?:anyOf|oneOf)\/\d+\//;

/** ajv errors of one resource as results: unknown fields are warnings, everything else errors. */
export function schemaErrorResults(
  errors: readonly ErrorObject[],
  data: unknown,
  resource: string,
): ValidationResult[] {
  const results: ValidationResult[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (BRANCH.test(error.schemaPath)) continue;
    const { severity, segments, message } = describe(error, data);
    const path = formatPath(segments);
    const key = `${severity}\n${path}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    results.push({ severity, message, path, resource });
  }
  return results;
}
