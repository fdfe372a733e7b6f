import type { PathSegment } from '../field-path';
import { isValidPercent } from './k8s-names';
import { invalid, nonNegative, type RuleContext } from './rule-context';

/**
 * apps ValidatePositiveIntOrPercent: a count >= 0 or a percent; with `atMost100`, IsNotMoreThan100Percent too (a
 * Deployment's maxSurge may exceed 100%, its maxUnavailable and a PodDisruptionBudget's values may not).
 */
export function checkIntOrPercent(
  value: unknown,
  at: readonly PathSegment[],
  ctx: RuleContext,
  atMost100: boolean,
): void {
  if (typeof value === 'number') {
    nonNegative(ctx, at, value);
    return;
  }
  if (typeof value !== 'string') return;
  const problems = isValidPercent(value);
  if (problems.length > 0) invalid(ctx, at, value, problems);
  else if (atMost100 && Number(value.slice(0, -1)) > 100) invalid(ctx, at, value, ['must not be greater than 100%']);
}
