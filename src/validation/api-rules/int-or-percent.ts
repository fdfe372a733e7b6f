import type { PathSegment } from '../field-path';
import { isValidPercent } from './k8s-names';
import { invalid, nonNegative, type RuleContext } from './rule-context';

/** apps ValidatePositiveIntOrPercent and IsNotMoreThan100Percent: a count >= 0, or a percent up to 100%. */
export function checkIntOrPercent(value: unknown, at: readonly PathSegment[], ctx: RuleContext): void {
  if (typeof value === 'number') {
    nonNegative(ctx, at, value);
    return;
  }
  if (typeof value !== 'string') return;
  const problems = isValidPercent(value);
  if (problems.length > 0) invalid(ctx, at, value, problems);
  else if (Number(value.slice(0, -1)) > 100) invalid(ctx, at, value, ['must not be greater than 100%']);
}
