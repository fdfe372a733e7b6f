import { boundResults } from './result-bounds';
import { checkApiServerRules } from './api-rules';
import { bestPracticeResults } from './checks/best-practices';
import { checkApiVersion, type CustomKinds } from './checks/api-version';
import { checkObjectName } from './checks/object-meta';
import { schemaErrorResults } from './checks/schema-errors';
import type { Deprecations } from './deprecations';
import { ManifestRejected } from './errors';
import { isRecord, ownField, recordField, stringField, type JsonRecord } from './json';
import type { ManifestLimits } from './manifest/limits';
import { parseManifest, writtenDocument, type ParsedDocument } from './manifest/parse-manifest';
import type { VersionSchemas } from './registry/version-schemas';
import type { ValidationResponse, ValidationResult } from './types';

export interface ManifestContext {
  schemas: VersionSchemas;
  deprecations: Deprecations;
  nameNotRequired: ReadonlySet<string>;
  customKinds: CustomKinds;
  limits: ManifestLimits;
  bestPractices: boolean;
}

/** A resource to validate: a document, or one item of a `kind: List` document. */
export interface ManifestResource {
  value: unknown;
  /** Set for a document that is not YAML; the value is then absent. */
  syntaxError?: string;
  documentIndex: number;
}

function resourceLabel(object: JsonRecord): string {
  const kind = stringField(object, 'kind') || '<unknown>';
  const metadata = recordField(object, 'metadata');
  const name = metadata && stringField(metadata, 'name');
  const generateName = metadata && stringField(metadata, 'generateName');
  return `${kind}/${name || (generateName ? `${generateName}<generated>` : '<unnamed>')}`;
}

function typeField(object: JsonRecord, key: 'kind' | 'apiVersion', resource: string): ValidationResult | undefined {
  const value = ownField(object, key);
  if (value === undefined) return { severity: 'error', message: `missing '${key}' key`, path: key, resource };
  if (typeof value !== 'string' || value === '') {
    return { severity: 'error', message: `'${key}' must be a non-empty string`, path: key, resource };
  }
  return undefined;
}

function validateResource(value: unknown, ctx: ManifestContext): ValidationResult[] {
  if (!isRecord(value)) {
    const message = 'document is not a Kubernetes object (expected a mapping with apiVersion and kind)';
    return [{ severity: 'error', message, path: '', resource: '<unknown>/<unnamed>' }];
  }
  const resource = resourceLabel(value);
  const missing = [typeField(value, 'kind', resource), typeField(value, 'apiVersion', resource)].filter(
    (r): r is ValidationResult => r !== undefined,
  );
  if (missing.length > 0) return missing;
  const kind = value.kind as string;
  const check = checkApiVersion(value.apiVersion as string, kind, { ...ctx, resource });
  const results = check.results;
  const target = check.target;
  if (!target) return results;
  const validate = target.source === 'builtin' ? ctx.schemas.validatorFor(target.entry) : target.validate;
  if (!validate(value)) results.push(...schemaErrorResults(validate.errors ?? [], value, resource));
  results.push(...checkObjectName(value, kind, ctx.nameNotRequired, resource));
  checkApiServerRules(value, kind, target.source === 'builtin', ctx.schemas.version, resource, results);
  if (target.source === 'builtin' && ctx.bestPractices) results.push(...bestPracticeResults(value, kind, resource));
  return results;
}

/** `kind: List` is not a resource but a wrapper: its items are the resources (none when it has no items). */
function listItems(value: unknown): unknown[] | undefined {
  if (!isRecord(value) || ownField(value, 'kind') !== 'List') return undefined;
  const items = ownField(value, 'items');
  return Array.isArray(items) ? items : items === undefined ? [] : undefined;
}

/** Resources of parsed documents, with `kind: List` items standing in for their List; empty documents dropped. */
export function resourcesOf(docs: Iterable<ParsedDocument>, limits: ManifestLimits): ManifestResource[] {
  const out: ManifestResource[] = [];
  for (const doc of docs) {
    const items = listItems(doc.value);
    if (doc.syntaxError !== undefined)
      out.push({ value: undefined, syntaxError: doc.syntaxError, documentIndex: doc.index });
    else if (items) out.push(...items.map((value) => ({ value, documentIndex: doc.index })));
    else if (doc.value !== undefined) out.push({ value: doc.value, documentIndex: doc.index });
    if (out.length > limits.maxResources) {
      throw new ManifestRejected('TOO_MANY_RESOURCES', `manifest has more than ${limits.maxResources} resources`);
    }
  }
  return out;
}

export function manifestResources(yamlText: string, limits: ManifestLimits): ManifestResource[] {
  return resourcesOf(parseManifest(yamlText, limits), limits);
}

/** The results of one resource, with what a report groups them by. */
export interface ResourceReport {
  /** `Kind/Name` as in its results. */
  resource: string;
  /** The resource's kind; undefined when it has none or is not a mapping. */
  kind?: string;
  documentIndex: number;
  results: ValidationResult[];
}

function validateCandidate(candidate: ManifestResource, ctx: ManifestContext): ResourceReport {
  const { documentIndex } = candidate;
  if (candidate.syntaxError !== undefined) {
    const resource = `<unknown>/<document ${documentIndex + 1}>`;
    return {
      resource,
      documentIndex,
      results: [{ severity: 'error', message: candidate.syntaxError, path: '', resource }],
    };
  }
  const record = isRecord(candidate.value) ? candidate.value : undefined;
  const resource = record ? resourceLabel(record) : '<unknown>/<unnamed>';
  const kind = record && stringField(record, 'kind');
  try {
    return { resource, kind, documentIndex, results: validateResource(candidate.value, ctx) };
  } catch (error) {
    if (error instanceof ManifestRejected) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const results: ValidationResult[] = [
      { severity: 'error', message: `resource could not be validated: ${reason}`, path: '', resource },
    ];
    return { resource, kind, documentIndex, results };
  }
}

/** Every resource's results, in order (see validateManifest). */
export function validateResources(resources: readonly ManifestResource[], ctx: ManifestContext): ResourceReport[] {
  return resources.map((candidate) => validateCandidate(candidate, ctx));
}

function summarize(results: readonly ValidationResult[]): ValidationResponse['summary'] {
  const summary = { errors: 0, warnings: 0, info: 0 };
  for (const r of results) {
    if (r.severity === 'error') summary.errors++;
    else if (r.severity === 'warning') summary.warnings++;
    else summary.info++;
  }
  return summary;
}

/**
 * Validates every resource of a multi-document manifest independently against one release's schemas and
 * the supplied CRDs. Throws ManifestRejected when the manifest as a whole is refused; anything else that
 * goes wrong becomes a result, never an exception.
 */
export function validateManifest(yamlText: string, ctx: ManifestContext): ValidationResponse {
  return responseOf(manifestResources(yamlText, ctx.limits), ctx);
}

/** validateManifest of a manifest this process dumped from `value` (writtenDocument): the same answer, no parse. */
export function validateWrittenManifest(yamlText: string, value: unknown, ctx: ManifestContext): ValidationResponse {
  return responseOf(resourcesOf([writtenDocument(yamlText, value, ctx.limits)], ctx.limits), ctx);
}

function responseOf(resources: readonly ManifestResource[], ctx: ManifestContext): ValidationResponse {
  const results = validateResources(resources, ctx).flatMap((r) => r.results);
  const summary = summarize(results);
  return { valid: summary.errors === 0, results: boundResults(results, ctx.limits), summary };
}
