import type { PathSegment } from '../field-path';
import { isRecord, ownField, type JsonRecord } from '../json';
import { isQualifiedName } from './k8s-names';
import { checkLabels } from './object-meta';
import { invalid, required, violation, type RuleContext } from './rule-context';

const WITH_VALUES = new Set(['In', 'NotIn']);
const WITHOUT_VALUES = new Set(['Exists', 'DoesNotExist']);

/** metav1 ValidateLabelSelector: matchLabels as labels, each matchExpressions requirement well-formed. */
export function checkLabelSelector(selector: JsonRecord, at: readonly PathSegment[], ctx: RuleContext): void {
  const matchLabels = ownField(selector, 'matchLabels');
  if (isRecord(matchLabels)) checkLabels(matchLabels, at, ctx, 'matchLabels');
  const expressions = ownField(selector, 'matchExpressions');
  if (!Array.isArray(expressions)) return;
  for (let i = 0; i < expressions.length; i++) {
    const requirement: unknown = expressions[i];
    if (!isRecord(requirement)) continue;
    const operator = ownField(requirement, 'operator');
    const values = ownField(requirement, 'values');
    const count = Array.isArray(values) ? values.length : 0;
    const where: PathSegment[] = [...at, 'matchExpressions', i];
    if (typeof operator === 'string' && WITH_VALUES.has(operator) && count === 0) {
      required(ctx, [...where, 'values'], "must be specified when `operator` is 'In' or 'NotIn'");
    } else if (typeof operator === 'string' && WITHOUT_VALUES.has(operator) && count > 0) {
      violation(
        ctx,
        [...where, 'values'],
        "forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      );
    } else if (typeof operator === 'string' && !WITH_VALUES.has(operator) && !WITHOUT_VALUES.has(operator)) {
      invalid(ctx, [...where, 'operator'], operator, ['not a valid selector operator']);
    }
    const key = ownField(requirement, 'key');
    if (typeof key === 'string') {
      const problems = isQualifiedName(key);
      if (problems.length > 0) invalid(ctx, [...where, 'key'], key, problems);
    }
  }
}

/** True when the selector has neither matchLabels nor matchExpressions (it would select everything). */
export function isEmptySelector(selector: JsonRecord): boolean {
  const matchLabels = ownField(selector, 'matchLabels');
  const expressions = ownField(selector, 'matchExpressions');
  const hasLabels = isRecord(matchLabels) && Object.keys(matchLabels).length > 0;
  return !hasLabels && !(Array.isArray(expressions) && expressions.length > 0);
}

function label(labels: JsonRecord | undefined, key: string): unknown {
  return labels ? ownField(labels, key) : undefined;
}

/** labels.Selector.Matches over a LabelSelector (matchLabels and the four operators). */
export function selectorMatches(selector: JsonRecord, labels: JsonRecord | undefined): boolean {
  const matchLabels = ownField(selector, 'matchLabels');
  if (isRecord(matchLabels)) {
    for (const key in matchLabels) {
      if (Object.prototype.hasOwnProperty.call(matchLabels, key) && label(labels, key) !== matchLabels[key])
        return false;
    }
  }
  const expressions = ownField(selector, 'matchExpressions');
  if (!Array.isArray(expressions)) return true;
  for (const requirement of expressions) {
    if (!isRecord(requirement)) continue;
    const key = ownField(requirement, 'key');
    const values = ownField(requirement, 'values');
    const value = typeof key === 'string' ? label(labels, key) : undefined;
    const listed = Array.isArray(values) && value !== undefined && values.includes(value);
    switch (ownField(requirement, 'operator')) {
      case 'In':
        if (!listed) return false;
        break;
      case 'NotIn':
        if (listed) return false;
        break;
      case 'Exists':
        if (value === undefined) return false;
        break;
      case 'DoesNotExist':
        if (value !== undefined) return false;
        break;
    }
  }
  return true;
}
