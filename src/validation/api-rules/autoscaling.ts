import { isRecord, ownField, recordField, type JsonRecord } from '../json';
import { checkIntOrPercent } from './int-or-percent';
import { isValidPathSegmentName } from './k8s-names';
import { checkLabelSelector } from './label-selector';
import { invalid, type RuleContext } from './rule-context';

/**
 * autoscaling ValidateHorizontalPodAutoscalerSpec: minReplicas >= 1 (0 only behind the HPAScaleToZero alpha gate,
 * off in every supported release), maxReplicas > 0 and >= minReplicas, a scale target name usable in a URL path.
 */
export function checkHorizontalPodAutoscaler(object: JsonRecord, ctx: RuleContext): void {
  const spec = recordField(object, 'spec');
  if (!spec) return;
  const min = ownField(spec, 'minReplicas');
  const max = ownField(spec, 'maxReplicas');
  if (typeof min === 'number' && min < 1) {
    invalid(ctx, ['spec', 'minReplicas'], min, ['must be greater than or equal to 1']);
  }
  if (typeof max === 'number' && max < 1) invalid(ctx, ['spec', 'maxReplicas'], max, ['must be greater than 0']);
  if (typeof max === 'number' && typeof min === 'number' && max < min) {
    invalid(ctx, ['spec', 'maxReplicas'], max, ['must be greater than or equal to `minReplicas`']);
  }
  const target = recordField(spec, 'scaleTargetRef');
  const name = target && ownField(target, 'name');
  if (typeof name === 'string' && name !== '') {
    const problems = isValidPathSegmentName(name);
    if (problems.length > 0) invalid(ctx, ['spec', 'scaleTargetRef', 'name'], name, problems);
  }
}

/** policy ValidatePodDisruptionBudgetSpec: one of minAvailable and maxUnavailable, each a count or a percent. */
export function checkPodDisruptionBudget(object: JsonRecord, ctx: RuleContext): void {
  const spec = recordField(object, 'spec');
  if (!spec) return;
  const minAvailable = ownField(spec, 'minAvailable');
  const maxUnavailable = ownField(spec, 'maxUnavailable');
  if (minAvailable !== undefined && minAvailable !== null && maxUnavailable !== undefined && maxUnavailable !== null) {
    invalid(ctx, ['spec'], spec, ['minAvailable and maxUnavailable cannot be both set']);
  }
  checkIntOrPercent(minAvailable, ['spec', 'minAvailable'], ctx, true);
  checkIntOrPercent(maxUnavailable, ['spec', 'maxUnavailable'], ctx, true);
  const selector = ownField(spec, 'selector');
  if (isRecord(selector)) checkLabelSelector(selector, ['spec', 'selector'], ctx);
}
