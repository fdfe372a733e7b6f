import { ownField, recordField, stringField } from '../validation/json';
import { parseImageReference, registryAllows } from './image-reference';
import { containersOf, manifestObjects, REPLICATED_KINDS, type ManifestObject } from './manifest-objects';

export type PolicyMode = 'enforce' | 'audit';
export type ResourceName = 'cpu' | 'memory';

interface RuleBase {
  /** Unique in its policy; results and release details name the rule by it. */
  id: string;
  mode: PolicyMode;
}

export type PolicyRule =
  | (RuleBase & { type: 'required-labels'; labels: string[]; kinds?: string[] })
  | (RuleBase & { type: 'allowed-registries'; registries: string[] })
  | (RuleBase & { type: 'resources-required'; requests?: ResourceName[]; limits?: ResourceName[] })
  | (RuleBase & { type: 'no-latest-tag' })
  | (RuleBase & { type: 'replicas-bounds'; min?: number; max?: number });

export type PolicyRuleType = PolicyRule['type'];

export interface Violation {
  file: string;
  kind: string;
  name: string;
  /** Field path inside the object, e.g. `spec.template.spec.containers[0].image`. */
  path: string;
  message: string;
}

export interface RuleResult {
  ruleId: string;
  type: PolicyRuleType;
  mode: PolicyMode;
  passed: boolean;
  /** True when the rule does not apply here (replicas bounds outside production); it then passes. */
  skipped: boolean;
  /** The first MAX_VIOLATIONS_PER_RULE violations. */
  violations: Violation[];
  /** Every violation found, listed or not. */
  violationCount: number;
}

export interface RuleContext {
  production: boolean;
}

/** A rule lists at most this many violations; `violationCount` counts them all. */
export const MAX_VIOLATIONS_PER_RULE = 100;

type Report = (object: ManifestObject, path: string, message: string) => void;

/** Quotes text taken from a manifest (bounded, so a long value cannot blow up a result). */
const quoted = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);

function requiredLabels(
  rule: Extract<PolicyRule, { type: 'required-labels' }>,
  object: ManifestObject,
  report: Report,
) {
  if (rule.kinds && rule.kinds.length > 0 && !rule.kinds.includes(object.kind)) return;
  const metadata = recordField(object.value, 'metadata');
  const labels = metadata && recordField(metadata, 'labels');
  for (const key of rule.labels) {
    const value = labels && ownField(labels, key);
    if (typeof value !== 'string' || value === '') {
      report(object, 'metadata.labels', `label ${quoted(key)} is required`);
    }
  }
}

function imagesOf(object: ManifestObject) {
  return containersOf(object).map((c) => ({ ...c, image: stringField(c.container, 'image') }));
}

function allowedRegistries(
  rule: Extract<PolicyRule, { type: 'allowed-registries' }>,
  object: ManifestObject,
  report: Report,
) {
  for (const { image, path } of imagesOf(object)) {
    if (image === undefined) continue;
    const ref = parseImageReference(image);
    if (!rule.registries.some((entry) => registryAllows(entry, ref))) {
      report(object, `${path}.image`, `image ${quoted(image)} comes from ${ref.registry}, which is not allowed`);
    }
  }
}

function noLatestTag(object: ManifestObject, report: Report) {
  for (const { image, path } of imagesOf(object)) {
    if (image === undefined) continue;
    const ref = parseImageReference(image);
    if (ref.tag === 'latest') report(object, `${path}.image`, `image ${quoted(image)} uses the latest tag`);
    else if (ref.tag === undefined && ref.digest === undefined) {
      report(object, `${path}.image`, `image ${quoted(image)} has no tag, so it runs latest`);
    }
  }
}

const BOTH: ResourceName[] = ['cpu', 'memory'];

function resourcesRequired(
  rule: Extract<PolicyRule, { type: 'resources-required' }>,
  object: ManifestObject,
  report: Report,
) {
  for (const { container, name, path } of containersOf(object)) {
    const resources = recordField(container, 'resources');
    for (const [section, wanted] of [
      ['requests', rule.requests ?? BOTH],
      ['limits', rule.limits ?? BOTH],
    ] as const) {
      const amounts = resources && recordField(resources, section);
      for (const resource of wanted) {
        const amount = amounts && ownField(amounts, resource);
        if (amount === undefined || amount === null || amount === '') {
          report(
            object,
            `${path}.resources.${section}.${resource}`,
            `container ${quoted(name)} sets no ${resource} ${section}`,
          );
        }
      }
    }
  }
}

function replicasBounds(
  rule: Extract<PolicyRule, { type: 'replicas-bounds' }>,
  object: ManifestObject,
  report: Report,
) {
  if (!REPLICATED_KINDS.has(object.kind)) return;
  const spec = recordField(object.value, 'spec');
  const raw = spec && ownField(spec, 'replicas');
  // Kubernetes runs one replica when the field is absent.
  const replicas = raw === undefined || raw === null ? 1 : raw;
  if (typeof replicas !== 'number') {
    report(object, 'spec.replicas', 'replicas is not a number');
    return;
  }
  if (rule.min !== undefined && replicas < rule.min) {
    report(object, 'spec.replicas', `${replicas} replicas is below the production minimum of ${rule.min}`);
  }
  if (rule.max !== undefined && replicas > rule.max) {
    report(object, 'spec.replicas', `${replicas} replicas is above the production maximum of ${rule.max}`);
  }
}

function checkObject(rule: PolicyRule, object: ManifestObject, report: Report): void {
  switch (rule.type) {
    case 'required-labels':
      return requiredLabels(rule, object, report);
    case 'allowed-registries':
      return allowedRegistries(rule, object, report);
    case 'resources-required':
      return resourcesRequired(rule, object, report);
    case 'no-latest-tag':
      return noLatestTag(object, report);
    case 'replicas-bounds':
      return replicasBounds(rule, object, report);
  }
}

/** One rule over parsed objects (exported for callers that evaluate several rule sets over one parse). */
export function evaluateRule(rule: PolicyRule, objects: readonly ManifestObject[], ctx: RuleContext): RuleResult {
  const result: RuleResult = {
    ruleId: rule.id,
    type: rule.type,
    mode: rule.mode,
    passed: true,
    skipped: false,
    violations: [],
    violationCount: 0,
  };
  if (rule.type === 'replicas-bounds' && !ctx.production) return { ...result, skipped: true };
  const report: Report = (object, path, message) => {
    result.violationCount += 1;
    if (result.violations.length < MAX_VIOLATIONS_PER_RULE) {
      result.violations.push({ file: object.file, kind: object.kind, name: object.name, path, message });
    }
  };
  for (const object of objects) checkObject(rule, object, report);
  return { ...result, passed: result.violationCount === 0 };
}

/**
 * Every rule over every object of `files` (path -> YAML text, multi-document allowed). Pure apart from parsing: no
 * I/O, the same input gives the same answer, so a release workflow's activity and the evaluate route agree.
 */
export function evaluateRules(files: Map<string, string>, rules: PolicyRule[], ctx: RuleContext): RuleResult[] {
  const objects = manifestObjects(files);
  return rules.map((rule) => evaluateRule(rule, objects, ctx));
}

/** A failed enforce rule blocks; an audit rule only reports. */
export function blocks(results: readonly RuleResult[]): boolean {
  return results.some((r) => r.mode === 'enforce' && !r.passed);
}
