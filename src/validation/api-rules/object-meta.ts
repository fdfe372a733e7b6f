import type { PathSegment } from '../field-path';
import { isRecord, ownField, type JsonRecord } from '../json';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  maxLenError,
  NONE,
  type Problems,
} from './k8s-names';
import { invalid, violation, type RuleContext } from './rule-context';

type NameRule = (name: string) => Problems;

/** Kinds whose names follow another rule than NameIsDNSSubdomain (apimachinery ValidateObjectMeta's nameFn). */
function nameRule(kind: string, minor: number): NameRule {
  switch (kind) {
    case 'Service':
      return isDNS1035Label; // core ValidateServiceName
    case 'Namespace':
      return isDNS1123Label; // core ValidateNamespaceName
    case 'StatefulSet':
      return minor >= 27 ? isDNS1123Label : isDNS1123Subdomain; // apps ValidateStatefulSetName, kubernetes#114172
    case 'Role':
    case 'ClusterRole':
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return isValidPathSegmentName; // rbac ValidateRBACName
    default:
      return isDNS1123Subdomain;
  }
}

/** TotalAnnotationSizeLimitB of apimachinery ValidateAnnotations. */
const ANNOTATIONS_MAX_BYTES = 256 * 1024;
/** batch ValidateCronJob: the Jobs it creates append an 11-character suffix to a DNS-1035 label. */
const CRON_JOB_NAME_MAX = 52;

/** ValidateLabels: each key a qualified name, each value a label value; reported at `[...at, field?, key]`. */
export function checkLabels(labels: unknown, at: readonly PathSegment[], ctx: RuleContext, field?: string): void {
  if (!isRecord(labels)) return;
  for (const key in labels) {
    if (!Object.prototype.hasOwnProperty.call(labels, key)) continue;
    const keyProblems = isQualifiedName(key);
    const value = labels[key];
    const valueProblems = typeof value === 'string' ? isValidLabelValue(value) : NONE;
    if (keyProblems.length === 0 && valueProblems.length === 0) continue;
    const path = field === undefined ? [...at, key] : [...at, field, key];
    if (keyProblems.length > 0) invalid(ctx, path, key, keyProblems);
    if (valueProblems.length > 0) invalid(ctx, path, value, valueProblems);
  }
}

/** ValidateAnnotations: keys are qualified names (compared lower-cased), and all of them fit in 256 KiB. */
export function checkAnnotations(annotations: unknown, at: readonly PathSegment[], ctx: RuleContext): void {
  if (!isRecord(annotations)) return;
  let units = 0;
  for (const key in annotations) {
    if (!Object.prototype.hasOwnProperty.call(annotations, key)) continue;
    const problems = isQualifiedName(key.toLowerCase());
    if (problems.length > 0) invalid(ctx, [...at, key], key, problems);
    const value = annotations[key];
    units += key.length + (typeof value === 'string' ? value.length : 0);
  }
  // A UTF-16 unit is 1 to 3 UTF-8 bytes: count bytes only when the cheap bound cannot decide.
  if (units * 3 <= ANNOTATIONS_MAX_BYTES) return;
  let bytes = 0;
  for (const [key, value] of Object.entries(annotations)) {
    bytes += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  }
  if (bytes > ANNOTATIONS_MAX_BYTES) {
    violation(ctx, at, `too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes (annotations take ${bytes} bytes)`);
  }
}

/** A generateName is checked as a prefix: one trailing '-' is allowed, as the generated suffix follows it. */
function maskTrailingDash(prefix: string): string {
  return prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -2)}a` : prefix;
}

/**
 * ObjectMeta of every kind (apimachinery ValidateObjectMetaAccessor): name and generateName by the kind's name
 * rule, namespace a DNS label, labels and annotations. A missing name is the object-meta check's warning.
 */
export function checkObjectMeta(object: JsonRecord, kind: string, ctx: RuleContext): void {
  const metadata = ownField(object, 'metadata');
  if (!isRecord(metadata)) return;
  const rule = nameRule(kind, ctx.minor);
  const name = ownField(metadata, 'name');
  if (typeof name === 'string' && name !== '') {
    const problems = rule(name);
    if (problems.length > 0) invalid(ctx, ['metadata', 'name'], name, problems);
    if (kind === 'CronJob' && name.length > CRON_JOB_NAME_MAX) {
      invalid(ctx, ['metadata', 'name'], name, [maxLenError(CRON_JOB_NAME_MAX)]);
    }
  }
  const generateName = ownField(metadata, 'generateName');
  if (typeof generateName === 'string' && generateName !== '') {
    const problems = rule(maskTrailingDash(generateName));
    if (problems.length > 0) invalid(ctx, ['metadata', 'generateName'], generateName, problems);
  }
  const namespace = ownField(metadata, 'namespace');
  if (typeof namespace === 'string' && namespace !== '') {
    const problems = isDNS1123Label(namespace);
    if (problems.length > 0) invalid(ctx, ['metadata', 'namespace'], namespace, problems);
  }
  checkLabels(ownField(metadata, 'labels'), ['metadata', 'labels'], ctx);
  checkAnnotations(ownField(metadata, 'annotations'), ['metadata', 'annotations'], ctx);
}
