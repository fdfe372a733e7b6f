import type { PathSegment } from '../field-path';
import { isRecord, ownField, recordField, type JsonRecord } from '../json';
import { checkIntOrPercent } from './int-or-percent';
import { checkLabelSelector, isEmptySelector, selectorMatches } from './label-selector';
import { checkAnnotations, checkLabels } from './object-meta';
import { checkPodSpec, checkRestartPolicy } from './pod-spec';
import { invalid, nonNegative, type RuleContext } from './rule-context';
import { ownValue } from '../../parse/own-property';

interface WorkloadShape {
  /** Path of the pod template (PodTemplateSpec), for Pod the object itself. */
  template: readonly PathSegment[];
  /** Restart policies its pods may have; undefined: the schema's enum decides. */
  restart?: readonly string[];
  /** Integer fields of spec that must not be negative. */
  nonNegative: readonly string[];
  /** How its selector relates to the template: a LabelSelector, a plain map (ReplicationController), or none. */
  selector?: 'labelSelector' | 'map';
}

const ALWAYS = ['Always'];
const RUN_TO_COMPLETION = ['OnFailure', 'Never'];
const REPLICATED = ['replicas', 'minReadySeconds', 'revisionHistoryLimit'];

/** apps ValidateDeploymentSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec, ValidateReplicaSetSpec; batch ValidateJobSpec, ValidateCronJobSpec; core ValidateReplicationControllerSpec, ValidatePod. */
const SHAPES: Record<string, WorkloadShape> = {
  Pod: { template: [], nonNegative: [] },
  PodTemplate: { template: ['template'], nonNegative: [] },
  Deployment: {
    template: ['spec', 'template'],
    restart: ALWAYS,
    nonNegative: [...REPLICATED, 'progressDeadlineSeconds'],
    selector: 'labelSelector',
  },
  ReplicaSet: { template: ['spec', 'template'], restart: ALWAYS, nonNegative: REPLICATED, selector: 'labelSelector' },
  StatefulSet: { template: ['spec', 'template'], restart: ALWAYS, nonNegative: REPLICATED, selector: 'labelSelector' },
  DaemonSet: {
    template: ['spec', 'template'],
    restart: ALWAYS,
    nonNegative: ['minReadySeconds', 'revisionHistoryLimit'],
    selector: 'labelSelector',
  },
  ReplicationController: {
    template: ['spec', 'template'],
    restart: ALWAYS,
    nonNegative: ['replicas', 'minReadySeconds'],
    selector: 'map',
  },
  Job: {
    template: ['spec', 'template'],
    restart: RUN_TO_COMPLETION,
    nonNegative: ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds'],
  },
  CronJob: {
    template: ['spec', 'jobTemplate', 'spec', 'template'],
    restart: RUN_TO_COMPLETION,
    nonNegative: ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit'],
  },
};

/** The paths each kind's rules report at, built once: a valid workload allocates none. */
interface ShapePaths {
  spec: readonly PathSegment[];
  labels: readonly PathSegment[];
  annotations: readonly PathSegment[];
  nonNegative: readonly (readonly PathSegment[])[];
}
const PATHS: Record<string, ShapePaths> = Object.fromEntries(
  Object.entries(SHAPES).map(([kind, shape]) => [
    kind,
    {
      spec: [...shape.template, 'spec'],
      labels: [...shape.template, 'metadata', 'labels'],
      annotations: [...shape.template, 'metadata', 'annotations'],
      nonNegative: shape.nonNegative.map((field) => ['spec', field]),
    },
  ]),
);
const TEMPLATE_LABELS = ['spec', 'template', 'metadata', 'labels'];
const SELECTOR = ['spec', 'selector'];
const ROLLING_UPDATE = ['spec', 'strategy', 'rollingUpdate'];

function at(object: unknown, path: readonly PathSegment[]): unknown {
  let node = object;
  for (const segment of path) node = isRecord(node) ? ownField(node, segment as string) : undefined;
  return node;
}

function checkSelector(kind: string, spec: JsonRecord, templateLabels: JsonRecord | undefined, ctx: RuleContext): void {
  const selector = ownField(spec, 'selector');
  if (!isRecord(selector)) return;
  if (ownValue(SHAPES, kind)?.selector === 'map') {
    const matches = Object.entries(selector).every(([key, value]) => templateLabels?.[key] === value);
    if (!matches) invalid(ctx, TEMPLATE_LABELS, templateLabels ?? {}, ['`selector` does not match template `labels`']);
    return;
  }
  checkLabelSelector(selector, SELECTOR, ctx);
  if (isEmptySelector(selector)) {
    invalid(ctx, SELECTOR, selector, [`empty selector is invalid for ${kind.toLowerCase()}`]);
  } else if (!selectorMatches(selector, templateLabels)) {
    invalid(ctx, TEMPLATE_LABELS, templateLabels ?? {}, ['`selector` does not match template `labels`']);
  }
}

/**
 * Pod-bearing kinds: the pod template's metadata and spec, the restart policy the controller allows, non-negative
 * counts, and a selector that selects the template's own pods.
 */
export function checkWorkload(object: JsonRecord, kind: string, ctx: RuleContext): void {
  const shape = ownValue(SHAPES, kind);
  const paths = ownValue(PATHS, kind);
  if (!shape || !paths) return;
  const template = shape.template.length === 0 ? object : at(object, shape.template);
  if (!isRecord(template)) return;
  const metadata = recordField(template, 'metadata');
  const templateLabels = metadata ? recordField(metadata, 'labels') : undefined;
  if (shape.template.length > 0 && metadata) {
    checkLabels(ownField(metadata, 'labels'), paths.labels, ctx);
    checkAnnotations(ownField(metadata, 'annotations'), paths.annotations, ctx);
  }
  const podSpec = recordField(template, 'spec');
  if (podSpec) {
    checkPodSpec(podSpec, paths.spec, ctx);
    if (shape.restart) checkRestartPolicy(podSpec, paths.spec, shape.restart, ctx);
  }
  const spec = recordField(object, 'spec');
  if (!spec || kind === 'Pod') return;
  for (let i = 0; i < shape.nonNegative.length; i++) {
    const field = shape.nonNegative[i] ?? '';
    nonNegative(ctx, paths.nonNegative[i] ?? [], ownField(spec, field));
  }
  if (shape.selector) checkSelector(kind, spec, templateLabels, ctx);
}

/** apps ValidateRollingUpdateDeployment: counts or percents, not both 0, maxUnavailable at most 100%. */
export function checkRollingUpdate(object: JsonRecord, ctx: RuleContext): void {
  const strategy = at(object, ROLLING_UPDATE);
  if (!isRecord(strategy)) return;
  const maxUnavailable = ownField(strategy, 'maxUnavailable');
  const maxSurge = ownField(strategy, 'maxSurge');
  checkIntOrPercent(maxUnavailable, [...ROLLING_UPDATE, 'maxUnavailable'], ctx, true);
  checkIntOrPercent(maxSurge, [...ROLLING_UPDATE, 'maxSurge'], ctx, false);
  const zero = (value: unknown): boolean => value === 0 || value === '0%';
  if (zero(maxUnavailable) && zero(maxSurge)) {
    invalid(ctx, [...ROLLING_UPDATE, 'maxUnavailable'], maxUnavailable, ['may not be 0 when `maxSurge` is 0']);
  }
}
