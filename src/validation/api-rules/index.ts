import type { JsonRecord } from '../json';
import type { ValidationResult } from '../types';
import { checkHorizontalPodAutoscaler, checkPodDisruptionBudget } from './autoscaling';
import { checkConfigMap, checkSecret } from './config-data';
import { checkIngress } from './ingress';
import { checkObjectMeta } from './object-meta';
import type { RuleCheck, RuleContext } from './rule-context';
import { checkService } from './service';
import { checkRollingUpdate, checkWorkload } from './workloads';
import { ownValue } from '../../parse/own-property';

/** Rules of one kind beyond ObjectMeta; the table in schemas/k8s/api-server-rules.md lists them with their sources. */
const KIND_RULES: Record<string, readonly RuleCheck[]> = {
  Pod: [(o, ctx) => checkWorkload(o, 'Pod', ctx)],
  PodTemplate: [(o, ctx) => checkWorkload(o, 'PodTemplate', ctx)],
  Deployment: [(o, ctx) => checkWorkload(o, 'Deployment', ctx), checkRollingUpdate],
  ReplicaSet: [(o, ctx) => checkWorkload(o, 'ReplicaSet', ctx)],
  StatefulSet: [(o, ctx) => checkWorkload(o, 'StatefulSet', ctx)],
  DaemonSet: [(o, ctx) => checkWorkload(o, 'DaemonSet', ctx)],
  ReplicationController: [(o, ctx) => checkWorkload(o, 'ReplicationController', ctx)],
  Job: [(o, ctx) => checkWorkload(o, 'Job', ctx)],
  CronJob: [(o, ctx) => checkWorkload(o, 'CronJob', ctx)],
  Service: [checkService],
  ConfigMap: [checkConfigMap],
  Secret: [checkSecret],
  Ingress: [checkIngress],
  HorizontalPodAutoscaler: [checkHorizontalPodAutoscaler],
  PodDisruptionBudget: [checkPodDisruptionBudget],
};

const minors = new Map<string, number>();

/** `1.32` -> 32, parsed once per release. */
function minorOf(version: string): number {
  let minor = minors.get(version);
  if (minor === undefined) {
    minor = Number(version.slice(version.indexOf('.') + 1));
    minors.set(version, minor);
  }
  return minor;
}

/**
 * The API server's validation beyond the OpenAPI schema (names, labels, ports, quantities, selectors, ...), as
 * `error` results appended to `results`. Built-in kinds get their kind's rules; every kind, custom ones included,
 * gets the ObjectMeta rules. Values of the wrong type are left to the schema check.
 */
export function checkApiServerRules(
  object: JsonRecord,
  kind: string,
  builtin: boolean,
  version: string,
  resource: string,
  results: ValidationResult[],
): void {
  const ctx: RuleContext = { results, resource, minor: minorOf(version) };
  checkObjectMeta(object, kind, ctx);
  if (!builtin) return;
  const rules = ownValue(KIND_RULES, kind);
  if (rules) for (const rule of rules) rule(object, ctx);
}
