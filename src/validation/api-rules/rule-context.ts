import { formatPath, type PathSegment } from '../field-path';
import type { JsonRecord } from '../json';
import { quote } from '../checks/schema-errors';
import type { ValidationResult } from '../types';
import type { Problems } from './k8s-names';

/**
 * What every API-server rule writes to: the results of one resource. Paths are only built for a failure, so a valid
 * resource costs no allocation beyond its walk.
 */
export interface RuleContext {
  readonly results: ValidationResult[];
  readonly resource: string;
  /** Minor version of the target release (`1.32` -> 32), for the rules that differ between releases. */
  readonly minor: number;
}

export type RuleCheck = (object: JsonRecord, ctx: RuleContext) => void;

function push(ctx: RuleContext, segments: readonly PathSegment[], message: string): void {
  ctx.results.push({ severity: 'error', message, path: formatPath(segments), resource: ctx.resource });
}

/** field.Invalid: one result per problem, with the offending value quoted (and truncated). */
export function invalid(ctx: RuleContext, segments: readonly PathSegment[], value: unknown, problems: Problems): void {
  for (const problem of problems) push(ctx, segments, `invalid value ${quote(value)}: ${problem}`);
}

/** field.Required. */
export function required(ctx: RuleContext, segments: readonly PathSegment[], detail: string): void {
  push(ctx, segments, `required value: ${detail}`);
}

/** field.Duplicate. */
export function duplicate(ctx: RuleContext, segments: readonly PathSegment[], value: unknown, detail: string): void {
  push(ctx, segments, `duplicate value ${quote(value)}: ${detail}`);
}

/** field.Forbidden / field.TooLong and other rules without a single offending value. */
export function violation(ctx: RuleContext, segments: readonly PathSegment[], message: string): void {
  push(ctx, segments, message);
}

/** A non-negative integer field (ValidateNonnegativeField); other types are the schema check's to report. */
export function nonNegative(ctx: RuleContext, segments: readonly PathSegment[], value: unknown): void {
  if (typeof value === 'number' && value < 0) invalid(ctx, segments, value, ['must be greater than or equal to 0']);
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** An int32 field's value as the rules check it: other numbers and types are the schema check's errors. */
export function isInt32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}
